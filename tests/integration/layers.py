#!/usr/bin/env python3
"""layers.py: the edges between src/'s folders that point up, one a line.

    layers.py includes SRCDIR [LAYERS]
    layers.py calls SRCDIR BUILDDIR [LAYERS]

LAYERS (SRCDIR/LAYERS unless named) lists the folders of src/ one layer
a line, the bottom first; '#' starts a comment. A folder may include the
headers of, and call, only folders on lines above its own in that file
(the layers below it). Two folders on one line are beside each other
and may reach neither. Every folder of src/ must be named once.

"includes" draws an edge from a folder to the folder of each header one
of its files names in an #include "..." (header names are unique across
src/; a header the build writes is in the folder of the build directory
it is written to). "calls" draws an edge from a folder to the folder
whose object defines a symbol that one of its objects leaves undefined
(nm over the objects under BUILDDIR/src of the .c files under SRCDIR,
each in the folder of its source).

Each edge that is not down is printed with what makes it, e.g.

    up: store -> model (qstore_reply.c:9 includes "eta.h")

Exit status 1 when there is such an edge or a folder is missing from
LAYERS, 2 when nothing could be read, else 0.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import modrings  # noqa: E402  (files_under, includes, nm)

SUFFIXES = ('.c', '.h', '.def')


def read_layers(path):
    """{folder: rank}, the bottom 0; a folder twice is an error."""
    rank = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f):
            for folder in line.split('#', 1)[0].split():
                if folder in rank:
                    raise ValueError('%s: %s is named twice' % (path, folder))
                rank[folder] = n
    return rank


def folder_of(top, path):
    """The first folder of path below top: src/store/lua/x.lua is store."""
    rel = os.path.relpath(path, top)
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else None


def homes(*tops):
    """{file name: folder} of every source file under the tops."""
    out = {}
    for top in tops:
        if top is None or not os.path.isdir(top):
            continue
        for p in modrings.files_under(top, SUFFIXES):
            f = folder_of(top, p)
            if f is not None:
                out.setdefault(os.path.basename(p), f)
    return out


def include_edges(srcdir, builddir=None):
    """{(from, to): evidence} from the #include "..." lines."""
    home = homes(srcdir, os.path.join(builddir, 'src') if builddir else None)
    paths = [p for p in modrings.files_under(srcdir, SUFFIXES)
             if folder_of(srcdir, p) is not None]
    byname = {os.path.basename(p): folder_of(srcdir, p) for p in paths}
    edges = {}
    for f, n, inc in modrings.includes(paths):
        me, to = byname[f], home.get(os.path.basename(inc))
        if to is not None and to != me:
            edges.setdefault((me, to), '%s:%d includes "%s"' % (f, n, inc))
    return edges, set(byname.values())


def call_edges(srcdir, builddir):
    """{(from, to): evidence} from the objects' symbols."""
    home = {n: f for n, f in homes(srcdir).items() if n.endswith('.c')}
    home.update({n: f for n, f in homes(os.path.join(builddir, 'src')).items()
                 if n.endswith('.c') and n not in home})
    objs = []
    top = os.path.join(builddir, 'src')
    for p in modrings.files_under(top, ('.o',)):
        c = os.path.basename(p)[:-2].split('-')[-1] + '.c'
        # An object left in a folder its source has since left is stale.
        if c in home and folder_of(top, p) == home[c]:
            objs.append((c, home[c], modrings.nm(p)))
    owner = {}
    for c, folder, (defined, _) in objs:
        for s in defined:
            owner.setdefault(s, folder)
    edges = {}
    for c, folder, (_, undefined) in sorted(objs):
        for s in sorted(undefined):
            to = owner.get(s)
            if to is not None and to != folder:
                edges.setdefault((folder, to), '%s uses %s' % (c, s))
    return edges, {folder for _, folder, _ in objs}


def verdicts(edges, folders, rank):
    out = ['unplaced: %s is a folder of src/ that LAYERS does not name' % f
           for f in sorted(folders) if f not in rank]
    for (a, b), why in sorted(edges.items()):
        if a in rank and b in rank and rank[b] >= rank[a]:
            word = 'beside' if rank[b] == rank[a] else 'up'
            out.append('%s: %s -> %s (%s)' % (word, a, b, why))
    return out


def main(argv):
    try:
        if len(argv) in (3, 4) and argv[1] == 'includes':
            layers = argv[3] if len(argv) == 4 else \
                os.path.join(argv[2], 'LAYERS')
            edges, folders = include_edges(argv[2])
        elif len(argv) in (4, 5) and argv[1] == 'calls':
            layers = argv[4] if len(argv) == 5 else \
                os.path.join(argv[2], 'LAYERS')
            edges, folders = call_edges(argv[2], argv[3])
        else:
            sys.stderr.write('usage: layers.py includes SRCDIR [LAYERS] | '
                             'calls SRCDIR BUILDDIR [LAYERS]\n')
            return 2
        rank = read_layers(layers)
    except (OSError, ValueError, FileNotFoundError) as e:
        sys.stderr.write('layers.py: %s\n' % e)
        return 2
    if not folders:
        sys.stderr.write('layers.py: no folder found\n')
        return 2
    found = verdicts(edges, folders, rank)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
