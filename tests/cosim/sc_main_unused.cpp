// libsystemc refers to sc_main; these tests never start the kernel.
extern "C" int sc_main(int, char**) { return 2; }
