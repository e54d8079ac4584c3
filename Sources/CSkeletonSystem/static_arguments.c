// In the static executable only (SKELETOND_STATIC): argc and argv for Swift's CommandLine,
// taken from glibc, which hands them to every initialiser it runs. The standard library's own
// initialiser for them (CommandLine.cpp in libswiftCore.a) finds argv by reading
// /proc/self/maps through stdio, about 2,800 instructions run for the first time before main
// at every start. These two functions are the only ones that file defines, so with them here,
// ahead of libswiftCore.a, the linker leaves it out and its initialiser with it.
#ifdef SKELETOND_STATIC

static int startArgc;
static char **startArgv;
static int overrideArgc;
static char **overrideArgv;

__attribute__((constructor)) static void keepArguments(int argc, char **argv, char **envp) {
    (void)envp;
    startArgc = argc;
    startArgv = argv;
}

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideArgv) {
        *outArgLen = overrideArgc;
        return overrideArgv;
    }
    *outArgLen = startArgc;
    return startArgv;
}

__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArgv = argv;
    overrideArgc = argc;
}

#endif
