/* ctl_invite.h: waitroomctl invite, invitations signed with the pass keys. */
#ifndef WR_CTL_INVITE_H
#define WR_CTL_INVITE_H

int ctl_invite(int argc, char **argv);

#endif
