// exgc.cpp - the exgc executable: main() hands over to exgc_main ----------//
#include "tools/exgc/command_line.h"

int main(int argc, char **argv) { return exgc_main(argc, argv); }
