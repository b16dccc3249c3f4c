// The empty kernel behind Backend::measure_overheads: what a launch costs with no work in it.
XR_KERNEL { XR_UNUSED_ARGS; }
