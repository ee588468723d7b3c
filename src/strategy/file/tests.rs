//! Tests of the strategy file format: one per knob on constructed states.
