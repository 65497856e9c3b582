// The fxkit executable: all logic lives in fxkit_repl; this only forwards the command line.
#include "repl/Cli.h"

int main(int argc, char **argv) { return fxkit::runCli(argc, argv); }
