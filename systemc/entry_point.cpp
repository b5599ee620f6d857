// SPDX-License-Identifier: Apache-2.0
// A program built on the collnet library has an ordinary main(): sim::Machine starts
// SystemC's kernel itself (sc_start), so nobody has to write SystemC's sc_main. SystemC's
// library still names sc_main as the entry point of the programs it starts
// (sc_elab_and_sim); this definition satisfies the linker for programs that have none.
// It is a library of its own, libcollnet_entry.a, which collnet::driver links after
// SystemC's so that the linker takes it only where SystemC asks for an sc_main that the
// program does not define.
#include <iostream>

#include <systemc>  // declares sc_main extern "C"

int sc_main(int, char**) {
  std::cerr << "collnet: this program was started through SystemC's sc_elab_and_sim but defines no sc_main; "
               "a program built on collnet has an ordinary main() and builds a collnet::driver::Job\n";
  return 1;
}
