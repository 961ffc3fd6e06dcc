/* Subcommands of the hwcrypt command line, one file each. */
#ifndef HWC_TOOLS_CLI_H
#define HWC_TOOLS_CLI_H

/* argv[0] is the subcommand name ("speed"); returns the process exit code. */
int hwc_cmd_list(int argc, char **argv);
int hwc_cmd_caps(int argc, char **argv);
int hwc_cmd_enc(int argc, char **argv);
int hwc_cmd_speed(int argc, char **argv);

#endif
