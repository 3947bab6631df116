//! Each case of `phobos selftest --gpu` and `phobos bench` in a child process of its own, killed
//! after a time limit: on a GPU one illegal address poisons the whole context (every later call
//! fails with it) and a deadlocked kernel never returns, so a case that faults or hangs must
//! not take the cases after it down too.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one child printed, and how it ended.
pub struct Child {
    /// Its standard output, line by line.
    pub lines: Vec<String>,
    /// Why it gave no result of its own: killed after the limit, or ended by a signal or a
    /// nonzero exit without a line; `None` when it ended on its own.
    pub trouble: Option<String>,
}

/// Runs this binary with `args`, kills it after `limit`, and returns what it printed. Its
/// standard error is kept for the message when it dies without a result.
pub fn run(args: &[String], limit: Duration) -> Child {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return Child { lines: Vec::new(), trouble: Some(format!("cannot find this binary to start the case: {e}")) },
    };
    let spawned = Command::new(exe).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return Child { lines: Vec::new(), trouble: Some(format!("cannot start the case's process: {e}")) },
    };
    // Drained on threads, so that a child filling a pipe does not block before the limit.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "no result after {} s: killed (a hang, a deadlock or a runaway kernel)",
                    trim_float(limit.as_secs_f64())
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => break Err(format!("waiting for the case's process: {e}")),
        }
    };
    let lines: Vec<String> = out.join().unwrap_or_default().lines().map(str::to_string).collect();
    let stderr = err.join().unwrap_or_default();
    let trouble = match status {
        Err(why) => Some(why),
        Ok(s) if lines.is_empty() && !s.success() => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            Some(format!(
                "the case's process ended with {s} and no result{}",
                if last.is_empty() { String::new() } else { format!(": {last}") }
            ))
        }
        Ok(_) => None,
    };
    Child { lines, trouble }
}

/// `2`, `0.5`: seconds as a person writes them.
fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Parses a time limit in seconds (`--case-timeout`): positive and finite.
pub fn parse_limit(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v <= 86_400.0 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 86400 (exclusive of 0)")),
    }
}
