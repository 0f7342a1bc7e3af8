//! A counting allocator for the benchmarks: the system allocator plus two counters (bytes
//! allocated now, and the most allocated at once since the window began), so that
//! `squillion bench` can print bytes per stored document and an evaluation's peak memory.
//! Installed by the native binary (`main.rs`); two relaxed atomic operations per call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting the bytes it holds.
#[derive(Debug, Default)]
pub struct Counting;

// SAFETY: every call is forwarded unchanged to `System`; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation is).
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc` and `dealloc`: `ptr` came from `System` with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Relaxed);
            grow(new_size);
        }
        p
    }
}

fn grow(bytes: usize) {
    INSTALLED.store(true, Relaxed);
    let now = CURRENT.fetch_add(bytes, Relaxed).saturating_add(bytes);
    PEAK.fetch_max(now, Relaxed);
}

/// Returns the bytes allocated now, or `None` when the counting allocator is not installed.
pub fn current() -> Option<u64> {
    INSTALLED
        .load(Relaxed)
        .then(|| CURRENT.load(Relaxed) as u64)
}

/// Returns a probe for `bench::time_eval`: each call returns the most bytes allocated at
/// once since the previous call, above what was allocated at that call, and starts a new
/// window.
pub fn peak_probe() -> impl FnMut() -> Option<u64> {
    let mut base = 0usize;
    move || {
        if !INSTALLED.load(Relaxed) {
            return None;
        }
        let high = PEAK.load(Relaxed);
        let above = high.saturating_sub(base) as u64;
        base = CURRENT.load(Relaxed);
        PEAK.store(base, Relaxed);
        Some(above)
    }
}
