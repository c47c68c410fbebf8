//! The profile window of wirecost's Rust targets (README "Profile windows").
//!
//! With `WIRECOST_PROFILE_OUT=<absolute path>` in the environment, SIGUSR1 starts the `pprof`
//! crate's CPU sampler (SIGPROF from `setitimer(ITIMER_PROF)`: the whole process's CPU time, every
//! thread; on-CPU samples only) at `WIRECOST_PROFILE_HZ` samples per second (default 997), and
//! SIGUSR2 stops it and writes the samples as folded stacks to `<path>.tmp`, renamed to `<path>`.
//! Without the variable [`install`] does nothing: no signal handler, no thread, bytes unchanged.
//!
//! A target opts in with one call at the top of `main`: `profile_window::install("mcp-rust")?`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pprof::{ProfilerGuard, ProfilerGuardBuilder, Report};
use signal_hook::consts::{SIGUSR1, SIGUSR2};
use signal_hook::iterator::Signals;

/// The sampling rate when `WIRECOST_PROFILE_HZ` is unset (a prime, so the sampler does not beat in
/// step with a periodic load).
pub const DEFAULT_HZ: i32 = 997;

/// The one frame of a sample whose stack could not be unwound (kept, so no share is lost).
const NO_FRAMES: &str = "(no frames)";

/// The sampler's name and version in the profile's header.
const PROFILER: &str = "pprof-rs@0.15.0";

/// Reads `WIRECOST_PROFILE_OUT` and `WIRECOST_PROFILE_HZ` and, when the first is set, starts the
/// thread that opens a window on SIGUSR1 and writes it on SIGUSR2. `target` names the process in
/// the profile's header (`target=<name>`).
///
/// Errors: one line naming the variable and the fix (a relative path, a rate outside 1–10000), or
/// the signal handlers that could not be installed; the caller prints it and exits 2.
pub fn install(target: &str) -> Result<(), String> {
    let Some(out) = std::env::var_os("WIRECOST_PROFILE_OUT").filter(|v| !v.is_empty()) else {
        return Ok(());
    };
    let out = PathBuf::from(out);
    if !out.is_absolute() {
        return Err(format!(
            "WIRECOST_PROFILE_OUT={:?} is not an absolute path: give the profile file's absolute path",
            out
        ));
    }
    let hz = match std::env::var("WIRECOST_PROFILE_HZ") {
        Err(_) => DEFAULT_HZ,
        Ok(v) => match v.parse::<i32>() {
            Ok(n) if (1..=10_000).contains(&n) => n,
            _ => return Err(format!("WIRECOST_PROFILE_HZ={v:?} is not a rate from 1 to 10000 samples per second")),
        },
    };
    let signals = Signals::new([SIGUSR1, SIGUSR2]).map_err(|e| format!("cannot install the profile window's SIGUSR1/SIGUSR2 handlers: {e}"))?;
    let target = target.to_owned();
    std::thread::Builder::new()
        .name("profile-window".into())
        .spawn(move || serve(signals, &target, &out, hz))
        .map_err(|e| format!("cannot start the profile window's thread: {e}"))?;
    Ok(())
}

/// Opens and closes windows as the signals arrive; a second SIGUSR1 while a window is open, or a
/// SIGUSR2 with none open, is ignored. A window that cannot be opened or written is reported on
/// stderr (one line) and the target goes on serving.
fn serve(mut signals: Signals, target: &str, out: &Path, hz: i32) {
    let mut window: Option<ProfilerGuard<'static>> = None;
    for signal in signals.forever() {
        match (signal, window.is_some()) {
            (SIGUSR1, false) => {
                // Only libgcc is blocklisted: a sample taken inside the unwinder itself could deadlock
                // the unwinder the handler calls; samples in libc (system calls) are kept.
                match ProfilerGuardBuilder::default().frequency(hz).blocklist(&["libgcc"]).build() {
                    Ok(guard) => window = Some(guard),
                    Err(e) => eprintln!("{target}: profile window not opened: {e}"),
                }
            }
            (SIGUSR2, true) => {
                let guard = window.take().expect("window is open");
                let written = guard
                    .report()
                    .build()
                    .map_err(|e| format!("cannot build the report: {e}"))
                    .and_then(|report| {
                        drop(guard);
                        let meta = format!("profiler={PROFILER} target={target} pid={}", std::process::id());
                        write_atomic(out, &fold(&report, &meta, hz))
                    });
                if let Err(e) = written {
                    eprintln!("{target}: profile window not written to {}: {e}", out.display());
                }
            }
            _ => {}
        }
    }
}

/// Writes `text` to `out.tmp`, then renames it to `out`.
fn write_atomic(out: &Path, text: &str) -> Result<(), String> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text).map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, out).map_err(|e| e.to_string())
}

/// Renders `report` as folded stacks: the header `# wirecost-profile <meta> interval_us=<1e6/hz>`,
/// then one line per distinct stack, frames from root to leaf joined by `;` (inlined functions as
/// their own frames; Rust names demangled without their hash, others as the symbol table spells
/// them), a space and its sample count, sorted by stack. The sampler's own frames (its signal
/// handler and the unwinder it calls, up to the kernel's signal trampoline) are dropped; `;` inside
/// a name becomes `,`; a sample with no frame left is the one frame `(no frames)`.
pub fn fold(report: &Report, meta: &str, hz: i32) -> String {
    let mut counts: BTreeMap<String, i64> = BTreeMap::new();
    for (frames, &count) in &report.data {
        if count <= 0 {
            continue;
        }
        // Leaf first: each address's symbols innermost first (inlined functions before their caller).
        let names: Vec<String> = frames.frames.iter().flat_map(|symbols| symbols.iter().map(|s| symbol_name(&s.sys_name()))).collect();
        let start = sampler_frames(&names);
        let stack: Vec<&str> = names[start..].iter().rev().map(String::as_str).collect();
        let key = if stack.is_empty() { NO_FRAMES.to_owned() } else { stack.join(";") };
        *counts.entry(key).or_default() += count as i64;
    }
    let mut text = String::new();
    let _ = writeln!(text, "# wirecost-profile {meta} interval_us={}", 1e6 / f64::from(hz));
    for (stack, count) in counts {
        let _ = writeln!(text, "{stack} {count}");
    }
    text
}

/// How many leaf-most frames are the sampler's own: up to and including the kernel's signal
/// trampoline (`__restore_rt`) above pprof's signal handler, or the handler itself when no
/// trampoline is named; 0 when the handler is not on the stack.
fn sampler_frames(leaf_first: &[String]) -> usize {
    let Some(handler) = leaf_first.iter().rposition(|n| n.contains("perf_signal_handler")) else {
        return 0;
    };
    match leaf_first[handler + 1..].iter().position(|n| n == "__restore_rt") {
        Some(i) => handler + 1 + i + 1,
        None => handler + 1,
    }
}

/// A symbol's name for a frame: a Rust name demangled without its hash, any other as it is, an
/// empty one as `??`; `;` (in array types such as `[u8; 4]`) as `,`.
fn symbol_name(raw: &str) -> String {
    if raw.trim().is_empty() {
        return "??".to_owned();
    }
    let name = match rustc_demangle::try_demangle(raw) {
        Ok(d) => format!("{d:#}"),
        Err(_) => raw.to_owned(),
    };
    name.replace(';', ",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_their_hash_and_semicolons() {
        assert_eq!(symbol_name("_ZN10known_cost18parse_and_validate17h0123456789abcdefE"), "known_cost::parse_and_validate");
        assert_eq!(symbol_name("clock_gettime"), "clock_gettime");
        assert_eq!(symbol_name("a;b"), "a,b");
        assert_eq!(symbol_name(""), "??");
    }

    #[test]
    fn the_sampler_frames_are_dropped() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let with = s(&["backtrace::trace", "pprof::profiler::perf_signal_handler", "__restore_rt", "work", "main"]);
        assert_eq!(sampler_frames(&with), 3);
        assert_eq!(sampler_frames(&s(&["pprof::profiler::perf_signal_handler", "work"])), 1);
        assert_eq!(sampler_frames(&s(&["work", "main"])), 0);
    }
}
