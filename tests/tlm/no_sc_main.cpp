// libsystemc's own main() refers to sc_main; the plain tests never start the kernel
// (doctest_main.cpp provides main), but the symbol must exist for the link.
extern "C" int sc_main(int, char**) { return 2; }
