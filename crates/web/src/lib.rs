//! raven-web: the core's engines behind a small JSON interface, compiled to WebAssembly for
//! the browser explorer (web/).
//!
//! The page's worker hands [`compute`] a JSON request and receives every answer through the
//! one imported function `env.progress(ptr, len)`: each call carries one JSON message (a
//! value as soon as it is known, an error, the CSV of the view, `done`). A raw `extern "C"`
//! interface over JSON needs no binding generator, so building the page takes only cargo and
//! the wasm32 target. The engines are the ones the command line calls, with the same
//! arguments, so the numbers are the same bits. Where each job lives: [`explorer`] reads a
//! request and runs the engines (`annulus` those of the Annulus operation challenge); `rows`
//! writes the CSV the page exports; `quality` the figures of the page's "Is it a good game?" and `ledger` one game's
//! `μ` along it;
//! `sink` carries the messages back.

mod annulus;
pub mod explorer;
mod ledger;
mod quality;
mod rows;
mod sink;

/// Memory for a request of `len` bytes, written by the page before [`compute`].
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Frees memory from [`alloc`].
///
/// # Safety
/// `ptr` and `len` must come from one call of [`alloc`], freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back what `alloc` handed out, with its capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// Runs the JSON request of `len` bytes at `ptr` (from [`alloc`]; freed here), answering
/// through `env.progress`.
///
/// # Safety
/// `ptr` and `len` must come from one call of [`alloc`], filled with `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn compute(ptr: *mut u8, len: usize) {
    // SAFETY: the caller filled `len` bytes of this allocation.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let request = String::from_utf8_lossy(&bytes);
    explorer::run(&request, &mut |message: &str| post(message));
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// The page's handler of one JSON message (UTF-8, `len` bytes at `ptr`, read before it
    /// returns).
    fn progress(ptr: *const u8, len: usize);
}

#[cfg(target_arch = "wasm32")]
fn post(message: &str) {
    // SAFETY: the page reads the bytes during the call and keeps no pointer.
    unsafe { progress(message.as_ptr(), message.len()) }
}

/// Natively (the tests call [`explorer::run`] with a sink of their own) there is no page.
#[cfg(not(target_arch = "wasm32"))]
fn post(_message: &str) {}
