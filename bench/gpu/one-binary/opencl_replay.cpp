#include "opencl_replay.hpp"

#include <algorithm>

#include "cl_address_probe.hpp"
#include "cl_check.hpp"

namespace xr::onebin {
namespace {

// Each kernel's dynamic shared bytes, the one size every step of it launches with.
std::map<std::string, unsigned> shared_by_kernel(const Recording& r) {
  std::map<std::string, unsigned> shared;
  for (const Step& s : r.steps) {
    const auto* k = std::get_if<KernelStep>(&s);
    if (!k) continue;
    if (const auto it = shared.find(k->entry); it != shared.end() && it->second != k->shared_bytes)
      throw Error(ErrorCategory::unsupported, "opencl: " + short_name(*k) +
                                                  " launches with two sizes of dynamic shared "
                                                  "memory: one static size cannot serve both");
    shared[k->entry] = k->shared_bytes;
  }
  return shared;
}

// Opens the gate on every path out: a gate left closed would hold the queue for ever.
class UserEventGate {
 public:
  explicit UserEventGate(cl_context c)
      : event_(XR_CL_CREATE(clCreateUserEvent(c, status))), raw_(event_.get()) {}
  UserEventGate(const UserEventGate&) = delete;
  UserEventGate& operator=(const UserEventGate&) = delete;
  ~UserEventGate() {
    if (!open_) clSetUserEventStatus(event_.get(), -1);
  }
  const cl_event* event() const { return &raw_; }
  void open() {
    open_ = true;
    XR_CL_CHECK(clSetUserEventStatus(event_.get(), CL_COMPLETE));
  }

 private:
  opencl::EventOwner event_;
  cl_event raw_;
  bool open_ = false;
};

}  // namespace

PtxModule opencl_form(const PtxModule& ptx, const std::string& entry, std::uint64_t shared) {
  std::vector<std::string> params;
  for (unsigned s = 0; s < kSlots; ++s)
    params.push_back(".param .u64 .ptr .global .align 16 xr_buffer_" + std::to_string(s));
  PtxModule out = ptx.keep({entry}).with_params(entry, params);
  return shared ? out.with_static_shared(entry, shared) : out;
}

OpenclReplay::OpenclReplay(const ClDevice& d, const PtxModule& ptx, const Recording& r,
                           const SortCase& c, std::uint64_t flush_bytes)
    : device_(d), recording_(r), case_(c), flush_bytes_(flush_bytes) {
  for (const auto& [name, shared] : shared_by_kernel(r)) {
    programs_.emplace(name, d.build_ptx(opencl_form(ptx, name, shared).text()));
    kernels_.emplace(name, opencl::KernelOwner(XR_CL_CREATE(
                               clCreateKernel(programs_.at(name).get(), name.c_str(), status))));
  }
  const ClAddressProbe probe(d, ptx.header());
  SlotBases bases{};
  const cl_uchar zero = 0;
  for (unsigned s = 0; s < kSlots; ++s) {
    if (!r.slots[s]) continue;
    slots_[s] = opencl::MemOwner(
        XR_CL_CREATE(clCreateBuffer(d.context(), CL_MEM_READ_WRITE, r.slots[s], nullptr, status)));
    XR_CL_CHECK(clEnqueueFillBuffer(d.queue(), slots_[s].get(), &zero, sizeof zero, 0, r.slots[s],
                                    0, nullptr, nullptr));
    bases[s] = probe.address_of(slots_[s].get());
    if (bases[s] % alignment_of(Slot(s)))
      throw Error(ErrorCategory::unsupported, "opencl: the buffer of " +
                                                  std::string(to_string(Slot(s))) +
                                                  " is not aligned as the library needs");
  }
  flush_ = opencl::MemOwner(
      XR_CL_CREATE(clCreateBuffer(d.context(), CL_MEM_READ_WRITE, flush_bytes, nullptr, status)));
  for (const Step& step : r.steps) {
    const auto* k = std::get_if<KernelStep>(&step);
    params_.push_back(k ? bind_params(*k, bases) : std::vector<std::byte>{});
  }
  XR_CL_CHECK(clEnqueueWriteBuffer(d.queue(), buffer(Slot::keys_in), CL_TRUE, 0, c.keys.bytes(),
                                   c.keys.data(), 0, nullptr, nullptr));
  if (c.desc.pairs())
    XR_CL_CHECK(clEnqueueWriteBuffer(d.queue(), buffer(Slot::values_in), CL_TRUE, 0,
                                     c.values.bytes(), c.values.data(), 0, nullptr, nullptr));
  XR_CL_CHECK(clFinish(d.queue()));
}

cl_mem OpenclReplay::buffer(Slot s) const {
  const cl_mem m = slots_.at(static_cast<unsigned>(s)).get();
  if (!m)
    throw Error(ErrorCategory::check_failed,
                "opencl: the call has no buffer of " + std::string(to_string(s)));
  return m;
}

void OpenclReplay::enqueue(std::size_t i, const cl_event* wait, cl_event* event) const {
  const cl_uint waits = wait ? 1 : 0;
  if (const auto* f = std::get_if<FillStep>(&recording_.steps[i])) {
    XR_CL_CHECK(clEnqueueFillBuffer(device_.queue(), buffer(f->slot), &f->value, f->element_size,
                                    f->offset, f->bytes, waits, wait, event));
    return;
  }
  const auto& k = std::get<KernelStep>(recording_.steps[i]);
  const cl_kernel kernel = kernels_.at(k.entry).get();
  cl_uint arg = 0;
  for (const ParamSpan& p : k.params)
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, p.size, params_[i].data() + p.offset));
  for (unsigned s = 0; s < kSlots; ++s) {
    const cl_mem m = slots_[s].get();
    XR_CL_CHECK(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &m));
  }
  const std::size_t local[3] = {k.block.x, k.block.y, k.block.z};
  const std::size_t global[3] = {std::size_t(k.grid.x) * k.block.x,
                                 std::size_t(k.grid.y) * k.block.y,
                                 std::size_t(k.grid.z) * k.block.z};
  XR_CL_CHECK(clEnqueueNDRangeKernel(device_.queue(), kernel, 3, nullptr, global, local, waits,
                                     wait, event));
}

Sample OpenclReplay::run(Marks marks) {
  UserEventGate gate(device_.context());
  const cl_uint zero = 0;
  XR_CL_CHECK(clEnqueueFillBuffer(device_.queue(), flush_.get(), &zero, sizeof zero, 0,
                                  flush_bytes_, 1, gate.event(), nullptr));
  const std::size_t n = recording_.steps.size();
  std::vector<opencl::EventOwner> events(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool marked = marks == Marks::steps || i == 0 || i + 1 == n;
    cl_event e = nullptr;
    enqueue(i, nullptr, marked ? &e : nullptr);
    events[i] = opencl::EventOwner(e);
  }
  XR_CL_CHECK(clFlush(device_.queue()));
  gate.open();
  device_.wait(events[n - 1].get(), "a timed call");
  // Each step from the end of the one before, as the other APIs' marks between steps count it.
  std::vector<double> ms;
  cl_ulong last = profiled(events[0].get(), CL_PROFILING_COMMAND_START);
  for (std::size_t i = 0; i < n; ++i) {
    if (!events[i].get()) continue;
    const cl_ulong end = profiled(events[i].get(), CL_PROFILING_COMMAND_END);
    ms.push_back(double(end - last) * 1e-6);
    last = end;
  }
  return sample_of(ms, marks);
}

CallOutput OpenclReplay::read() {
  CallOutput out = empty_output(case_);
  XR_CL_CHECK(clFinish(device_.queue()));
  XR_CL_CHECK(clEnqueueReadBuffer(device_.queue(), buffer(Slot::keys_out), CL_TRUE, 0,
                                  out.keys.bytes(), out.keys.data(), 0, nullptr, nullptr));
  if (case_.desc.pairs())
    XR_CL_CHECK(clEnqueueReadBuffer(device_.queue(), buffer(Slot::values_out), CL_TRUE, 0,
                                    out.values.bytes(), out.values.data(), 0, nullptr, nullptr));
  return out;
}

}  // namespace xr::onebin
