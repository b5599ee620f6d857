// SPDX-License-Identifier: Apache-2.0
// Establishing communication between groups of one job (MPI-3.1 10.4). A port is a
// rank's: "collnet-port:<world rank>:<n>". MPI_Comm_connect's root sends the port's owner a
// request naming the port and its group; MPI_Comm_accept's root (the owner) takes the
// first request for that port (keeping others for their own accepts) and answers with its
// group; each root tells its group, and both groups make the intercommunicator
// (inter::bridge). The requests travel on MPI_COMM_SELF's transport, a duplicate of the
// world that no program message to another rank uses, on the tag the collectives reserve,
// which no receive of the program's can match. MPI_Comm_join swaps the two world ranks
// through the socket. Published names are the runtime's, one table for the job.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "mpi/api_support.hpp"
#include "mpi/intercomm.hpp"

using namespace collnet::mpi;
namespace drv = collnet::driver;

namespace {

constexpr uint64_t kRequest = 1, kReply = 2;
constexpr unsigned kTag = drv::Communicator::kMaxTag;
const char* const kPrefix = "collnet-port:";

struct Port {
  unsigned owner;
  int number;
};

std::string port_name(unsigned owner, int number) {
  return kPrefix + std::to_string(owner) + ":" + std::to_string(number);
}

Port parse_port(Rank& r, const char* name) {
  if (!name) fail(MPI_ERR_PORT, "port_name is null");
  unsigned owner = 0;
  int number = 0, used = 0;
  if (std::strncmp(name, kPrefix, std::strlen(kPrefix)) != 0 ||
      std::sscanf(name + std::strlen(kPrefix), "%u:%d%n", &owner, &number, &used) != 2 ||
      name[std::strlen(kPrefix) + static_cast<size_t>(used)] != '\0')
    fail(MPI_ERR_PORT, std::string("\"") + name + "\" is not a port name MPI_Open_port gave");
  if (owner >= r.task().world().size())
    fail(MPI_ERR_PORT, std::string("port \"") + name + "\" names world rank " + std::to_string(owner) +
                           ", which the job does not have");
  return {owner, number};
}

// The transport the requests travel on: MPI_COMM_SELF's, which spans the world.
drv::Communicator& transport(Rank& r) { return *r.comm(MPI_COMM_SELF).comm; }

void send_message(Rank& r, unsigned to, uint64_t kind, uint64_t port, const std::vector<unsigned>& group) {
  std::vector<uint64_t> m{kind, port};
  m.insert(m.end(), group.begin(), group.end());
  transport(r).send(m.data(), m.size(), drv::Datatype::U64, to, kTag);
}

// The next request or reply from `from` (or anyone): its kind, port and group.
Rank::PortRequest receive_message(Rank& r, unsigned from, uint64_t* kind) {
  drv::Communicator& t = transport(r);
  const drv::Status st = t.probe(from, kTag);
  std::vector<uint64_t> m(st.bytes / sizeof(uint64_t));
  t.recv(m.data(), m.size(), drv::Datatype::U64, st.source, kTag);
  if (m.size() < 2) fail(MPI_ERR_INTERN, "a port message of " + std::to_string(st.bytes) + " bytes");
  *kind = m[0];
  return {st.source, m[1], std::vector<unsigned>(m.begin() + 2, m.end())};
}

// MPI_Comm_accept and MPI_Comm_connect (as mpi.h call `name`): `root_work` runs at the
// root and returns the other group; the root tells its group (or that it failed, and
// why), and all make the intercommunicator.
template <class F>
int join_groups(const char* name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm, F&& root_work) {
  return api(name, comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    if (c.inter) fail(MPI_ERR_COMM, "ports join intracommunicators' groups");
    check_root(root, comm_size(c));
    if (!newcomm) fail(MPI_ERR_ARG, "newcomm is null");
    if (info != MPI_INFO_NULL) r.info(info);
    const std::vector<unsigned> local = members(r, c);
    std::vector<uint64_t> remote;
    std::string refused;
    if (comm_rank(c) == root) {
      try {
        const std::vector<unsigned> g = root_work(r, local);
        remote.assign(g.begin(), g.end());
      } catch (const MpiError& e) {
        if (c.self) throw;
        refused = e.what;
      }
    }
    if (!c.self) {  // the group's size, or ~0 for a refusal, then the group
      uint64_t n = refused.empty() ? remote.size() : ~uint64_t{0};
      c.comm->bcast(&n, 1, drv::Datatype::U64, static_cast<unsigned>(root));
      if (n == ~uint64_t{0}) fail(MPI_ERR_PORT, refused.empty() ? "the root's port was refused" : refused);
      remote.resize(n);
      if (n) c.comm->bcast(remote.data(), n, drv::Datatype::U64, static_cast<unsigned>(root));
    }
    *newcomm = inter::bridge(r, c.errhandler, local, std::vector<unsigned>(remote.begin(), remote.end()));
  });
}

}  // namespace

extern "C" {

int MPI_Open_port(MPI_Info info, char* port) {
  return api("MPI_Open_port", MPI_COMM_WORLD, [&](Rank& r) {
    if (!port) fail(MPI_ERR_ARG, "port_name is null");
    if (info != MPI_INFO_NULL) r.info(info);
    const int n = r.next_port++;
    r.open_ports.insert(n);
    const std::string s = port_name(r.world_rank(), n);
    std::memcpy(port, s.c_str(), s.size() + 1);
  });
}

int MPI_Close_port(const char* port) {
  return api("MPI_Close_port", MPI_COMM_WORLD, [&](Rank& r) {
    const Port p = parse_port(r, port);
    if (p.owner != r.world_rank() || !r.open_ports.erase(p.number))
      fail(MPI_ERR_PORT, std::string("\"") + port + "\" is not a port this rank has open");
  });
}

int MPI_Comm_accept(const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  return join_groups("MPI_Comm_accept", info, root, comm, newcomm, [&](Rank& r, const std::vector<unsigned>& local) {
    const Port p = parse_port(r, port);
    if (p.owner != r.world_rank() || !r.open_ports.count(p.number))
      fail(MPI_ERR_PORT, std::string("\"") + port + "\" is not a port this rank has open");
    Rank::PortRequest got;
    bool found = false;
    for (auto it = r.port_requests.begin(); it != r.port_requests.end(); ++it)
      if (it->port == static_cast<uint64_t>(p.number)) {
        got = std::move(*it);
        r.port_requests.erase(it);
        found = true;
        break;
      }
    while (!found) {
      uint64_t kind = 0;
      Rank::PortRequest m = receive_message(r, drv::kAnySource, &kind);
      if (kind == kRequest && m.port == static_cast<uint64_t>(p.number)) {
        got = std::move(m);
        found = true;
      } else if (kind == kRequest) {
        r.port_requests.push_back(std::move(m));  // for another port's accept
      }
    }
    send_message(r, got.source, kReply, static_cast<uint64_t>(p.number), local);
    return got.group;
  });
}

int MPI_Comm_connect(const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  return join_groups("MPI_Comm_connect", info, root, comm, newcomm, [&](Rank& r, const std::vector<unsigned>& local) {
    const Port p = parse_port(r, port);
    if (p.owner == r.world_rank())
      fail(MPI_ERR_PORT, std::string("\"") + port + "\" is this rank's own port: its accept cannot run meanwhile");
    send_message(r, p.owner, kRequest, static_cast<uint64_t>(p.number), local);
    for (;;) {
      uint64_t kind = 0;
      Rank::PortRequest m = receive_message(r, p.owner, &kind);
      if (kind == kReply && m.port == static_cast<uint64_t>(p.number)) return m.group;
      if (kind == kRequest) r.port_requests.push_back(std::move(m));  // the owner connects to us too
    }
  });
}

int MPI_Comm_join(int fd, MPI_Comm* intercomm) {
  return api("MPI_Comm_join", MPI_COMM_WORLD, [&](Rank& r) {
    if (!intercomm) fail(MPI_ERR_ARG, "intercomm is null");
    // Each end writes its world rank, then reads the other's; the read waits as a call
    // waits, the machine running on, so that the other end's rank can get there.
    const uint32_t mine = r.world_rank();
    if (write(fd, &mine, sizeof mine) != static_cast<ssize_t>(sizeof mine))
      fail(MPI_ERR_ARG, "cannot write to socket " + std::to_string(fd) + ": " + std::strerror(errno));
    uint32_t theirs = 0;
    size_t got = 0;
    while (got < sizeof theirs) {
      pollfd pfd{fd, POLLIN, 0};
      const int ready = poll(&pfd, 1, 0);
      if (ready < 0) fail(MPI_ERR_ARG, "cannot poll socket " + std::to_string(fd) + ": " + std::strerror(errno));
      if (ready == 0) {
        r.task().cpu().idle(64);  // other ranks run meanwhile (its processor's resume makes r current again)
        continue;
      }
      const ssize_t n = read(fd, reinterpret_cast<char*>(&theirs) + got, sizeof theirs - got);
      if (n <= 0)
        fail(MPI_ERR_ARG, "socket " + std::to_string(fd) + " closed before the other end joined" +
                              (n < 0 ? std::string(": ") + std::strerror(errno) : std::string()));
      got += static_cast<size_t>(n);
    }
    if (theirs >= r.task().world().size() || theirs == mine)
      fail(MPI_ERR_ARG, "the other end of socket " + std::to_string(fd) + " is not another rank of this job (" +
                            std::to_string(theirs) + ")");
    *intercomm = inter::bridge(r, MPI_ERRORS_ARE_FATAL, {mine}, {theirs});
  });
}

int MPI_Publish_name(const char* service, MPI_Info info, const char* port) {
  return api("MPI_Publish_name", MPI_COMM_WORLD, [&](Rank& r) {
    if (!service || !*service) fail(MPI_ERR_SERVICE, "service_name is null or empty");
    if (info != MPI_INFO_NULL) r.info(info);
    parse_port(r, port);
    if (r.runtime().options().parts)
      fail(MPI_ERR_SERVICE, "names are published within one process, and this run is in partitions");
    auto [it, added] = r.runtime().published().emplace(service, port);
    if (!added) fail(MPI_ERR_SERVICE, std::string("\"") + service + "\" is published already (as " + it->second + ")");
  });
}

int MPI_Unpublish_name(const char* service, MPI_Info info, const char* port) {
  return api("MPI_Unpublish_name", MPI_COMM_WORLD, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    auto& names = r.runtime().published();
    auto it = service ? names.find(service) : names.end();
    if (it == names.end() || !port || it->second != port)
      fail(MPI_ERR_SERVICE, std::string("\"") + (service ? service : "(null)") + "\" is not published with port " +
                                (port ? port : "(null)"));
    names.erase(it);
  });
}

int MPI_Lookup_name(const char* service, MPI_Info info, char* port) {
  return api("MPI_Lookup_name", MPI_COMM_WORLD, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    if (!port) fail(MPI_ERR_ARG, "port_name is null");
    if (r.runtime().options().parts)
      fail(MPI_ERR_NAME, "names are published within one process, and this run is in partitions");
    const auto& names = r.runtime().published();
    const auto it = service ? names.find(service) : names.end();
    if (it == names.end()) fail(MPI_ERR_NAME, std::string("\"") + (service ? service : "(null)") + "\" is not published");
    std::memcpy(port, it->second.c_str(), it->second.size() + 1);
  });
}

}  // extern "C"
