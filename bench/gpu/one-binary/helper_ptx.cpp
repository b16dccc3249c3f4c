#include "helper_ptx.hpp"

namespace xr::onebin {

std::string gate_ptx(const std::string& header) {
  return header + R"(
.visible .entry xr_gate(
	.param .u64 xr_gate_release,
	.param .u64 xr_gate_timed_out,
	.param .u64 xr_gate_timeout_ns
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<7>;
	ld.param.u64 %rd1, [xr_gate_release];
	ld.param.u64 %rd2, [xr_gate_timed_out];
	ld.param.u64 %rd3, [xr_gate_timeout_ns];
	mov.u64 %rd4, %globaltimer;
$L_wait:
	ld.volatile.u32 %r1, [%rd1];
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L_done;
	mov.u64 %rd5, %globaltimer;
	sub.s64 %rd6, %rd5, %rd4;
	setp.lt.u64 %p2, %rd6, %rd3;
	@%p2 bra $L_wait;
	mov.u32 %r2, 1;
	st.volatile.u32 [%rd2], %r2;
$L_done:
	ret;
}
)";
}

std::string address_ptx(const std::string& header) {
  return header + R"(
.visible .entry xr_address_of(
	.param .u64 .ptr .global .align 16 xr_address_of_buffer,
	.param .u64 .ptr .global .align 8 xr_address_of_out
)
{
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [xr_address_of_buffer];
	ld.param.u64 %rd2, [xr_address_of_out];
	st.global.u64 [%rd2], %rd1;
	ret;
}
)";
}

}  // namespace xr::onebin
