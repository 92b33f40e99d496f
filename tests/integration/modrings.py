#!/usr/bin/env python3
"""modrings.py: the rings between the daemon's modules, one a line.

    modrings.py includes SRCDIR
    modrings.py calls SRCDIR BUILDDIR

A module is a .c with the .h of the same name; a .c or a header alone is
its own module (so are the generated lua_scripts.h and page_files.h, and
routes.def), but for a module's private header (see private_headers). "includes" draws an edge from a module to each module whose
file one of its files names in an #include "...": the files under SRCDIR.
"calls" draws an edge from a module to each module whose object defines
a symbol its own object leaves undefined, by nm over the objects under
BUILDDIR (a function called or a global reached).

A ring is a cycle of edges. Each is printed as the modules around it and
what makes each edge, e.g.

    ring: a -> b -> a (a.c:3 includes "b.h"; b.c:5 includes "a.h")

Exit status 1 when there is a ring, 2 when nothing could be read, else 0.
"""
import collections
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SUFFIXES = ('.c', '.h', '.def')


def files_under(top, suffixes):
    for d, subdirs, names in os.walk(top):
        subdirs.sort()
        for n in sorted(names):
            if n.endswith(suffixes):
                yield os.path.join(d, n)


class Modules:
    """Module names from file names: a pair by its stem, a lone file by
    its name."""

    def __init__(self, names):
        stems = collections.Counter()
        for n in names:
            stem, ext = os.path.splitext(n)
            if ext in ('.c', '.h'):
                stems[stem] += 1
        self.paired = {s for s, k in stems.items() if k == 2}

    def of(self, name):
        stem, ext = os.path.splitext(name)
        return stem if ext in ('.c', '.h') and stem in self.paired else name


def includes(paths):
    """[(file, line number, included name)] of the #include "..." lines."""
    out = []
    for p in paths:
        with open(p, encoding='utf-8', errors='replace') as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    out.append((os.path.basename(p), n, m.group(1)))
    return out


def private_headers(mods, incs):
    """{header: module} for each header alone that a module's .c includes
    and that includes the module's own header back (store_conn.h: what
    store.c shares with its helpers): the header is that module's inside,
    not a module of its own, so that pair is no ring. Every other edge of
    the header stays, now the module's."""
    alone = {i for _, _, i in incs if i.endswith('.h') and
             mods.of(os.path.basename(i)) == os.path.basename(i)}
    back = {(f, os.path.basename(i)) for f, _, i in incs}
    owner = {}
    for f, _, inc in sorted(incs):
        h = os.path.basename(inc)
        m = mods.of(f)
        if (h in alone and f.endswith('.c') and m != f and
                (h, m + '.h') in back):
            owner.setdefault(h, m)
    return owner


def include_edges(srcdir):
    """{module: {module: evidence}} from the #include "..." lines. An
    included name with no file under srcdir (lua_scripts.h, page_files.h,
    which the build writes) is a module of its own."""
    paths = list(files_under(srcdir, SUFFIXES))
    mods = Modules({os.path.basename(p) for p in paths})
    incs = includes(paths)
    owner = private_headers(mods, incs)

    def module(name):
        name = os.path.basename(name)
        return owner.get(name, mods.of(name))

    edges = collections.defaultdict(dict)
    for p in paths:
        edges[module(p)]
    for f, n, inc in incs:
        me, to = module(f), module(inc)
        if to != me:
            edges[me].setdefault(to, '%s:%d includes "%s"' % (f, n, inc))
    return edges


def nm(obj):
    """(defined, undefined) global symbols of an object file."""
    out = subprocess.run(['nm', '-P', obj], check=True,
                         capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == 'U':
            undefined.add(f[0])
        elif f[1] in 'TDBRCGSVW':
            defined.add(f[0])
    return defined, undefined


def call_edges(srcdir, builddir):
    """{module: {module: evidence}} from the objects' symbols. Only the
    objects of a .c that is still there count (a build tree may keep the
    object of a file since removed); automake's target prefix
    (libwaitroom_a-) is not part of the name."""
    sources = {os.path.basename(p) for top in (srcdir, builddir)
               for p in files_under(top, SUFFIXES)}
    mods = Modules(sources)
    objs = {}
    for p in files_under(builddir, ('.o',)):
        c = os.path.basename(p)[:-2].split('-')[-1] + '.c'
        if c in sources:
            objs[mods.of(c)] = (c, nm(p))
    owner = {}
    for me, (_, (defined, _)) in objs.items():
        for s in defined:
            owner[s] = me
    edges = collections.defaultdict(dict)
    for me, (c, (_, undefined)) in objs.items():
        edges[me]
        for s in sorted(undefined):
            to = owner.get(s)
            if to is not None and to != me:
                edges[me].setdefault(to, '%s uses %s' % (c, s))
    return edges


def components(edges):
    """The strongly connected components of more than one module."""
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        # Iterative Tarjan: the graph is small, but recursion is not needed.
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            u, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[u] = min(low[u], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[u])
                if low[u] == index[u]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == u:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(edges, comp, start):
    """The shortest cycle from start back to it, inside comp."""
    prev = {start: None}
    queue = collections.deque([start])
    while queue:
        u = queue.popleft()
        for w in sorted(edges.get(u, ())):
            if w not in comp:
                continue
            if w == start:
                path = [u]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1]
            if w not in prev:
                prev[w] = u
                queue.append(w)
    return None


def rings(edges):
    """Each module of a component on the shortest ring through it; the
    same ring is named once."""
    seen, out = set(), []
    for comp in components(edges):
        members = set(comp)
        for v in comp:
            cyc = shortest_cycle(edges, members, v)
            if cyc is None:
                continue
            i = cyc.index(min(cyc))
            cyc = cyc[i:] + cyc[:i]
            if tuple(cyc) in seen:
                continue
            seen.add(tuple(cyc))
            why = [edges[a][b] for a, b in zip(cyc, cyc[1:] + cyc[:1])]
            out.append('ring: %s -> %s (%s)' % (
                ' -> '.join(cyc), cyc[0], '; '.join(why)))
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == 'includes':
        edges = include_edges(argv[2])
    elif len(argv) == 4 and argv[1] == 'calls':
        edges = call_edges(argv[2], argv[3])
    else:
        sys.stderr.write('usage: modrings.py includes SRCDIR | '
                         'calls SRCDIR BUILDDIR\n')
        return 2
    if not edges:
        sys.stderr.write('modrings.py: no module found\n')
        return 2
    found = rings(edges)
    for r in found:
        print(r)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
