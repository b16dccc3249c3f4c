#version 450
// The empty dispatch of the overhead table (Backend::measure_overheads): what a dispatch costs
// with no work in it.
layout(local_size_x = 32) in;

void main() {}
