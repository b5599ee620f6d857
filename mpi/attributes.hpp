// SPDX-License-Identifier: Apache-2.0
// What MPI_Comm_dup/free, MPI_Type_dup/free and MPI_Win_free do with the program's attributes
// (api_attributes.cpp): the copy callbacks on a duplicate, the delete callbacks on free.
#pragma once

#include "mpi/runtime.hpp"

namespace collnet::mpi {

void copy_comm_attributes(Rank& r, MPI_Comm from, MPI_Comm to);
void delete_comm_attributes(Rank& r, MPI_Comm comm);
void copy_type_attributes(Rank& r, MPI_Datatype from, MPI_Datatype to);
void delete_type_attributes(Rank& r, MPI_Datatype type);
void delete_win_attributes(Rank& r, MPI_Win win);

}  // namespace collnet::mpi
