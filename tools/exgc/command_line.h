// command_line.h - exgc's command line, callable more than once -------------//
#pragma once

/// Parses `argv` (argv[0] is the program name), runs the driver and returns
/// the exit code (command_line.cpp lists them). Options are reset first, so
/// a process may call it repeatedly.
int exgc_main(int argc, const char *const *argv);
