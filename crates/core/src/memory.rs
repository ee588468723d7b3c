//! What the native build asks of the system allocator (glibc's), behind the `memory-hints`
//! feature: elsewhere (the browser, other systems) each of these does nothing.

/// Has every block of 128 KiB or more mapped from the operating system and handed back as
/// soon as it is freed. glibc's default raises that threshold to the largest block freed so
/// far (up to 32 MiB); from then on the engines' growing arrays are reallocated inside its
/// heap, and the holes they leave count as memory in use: a strategy's exact play of Purple
/// Raven then peaks a quarter higher. Called once, first thing, by the binaries.
pub fn hand_back_large_blocks() {
    #[cfg(all(feature = "memory-hints", target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a tunable of the allocator; glibc takes it at any time,
    // and a refusal (0) leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

/// Hands the memory freed so far back to the operating system: between the phases of a
/// solve that drops large tables, so that the next phase's peak is not allocated on top of
/// the holes.
pub fn return_freed_memory() {
    #[cfg(all(feature = "memory-hints", target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns whole free pages of the allocator's heap to the
    // kernel; it frees nothing in use and may be called at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
