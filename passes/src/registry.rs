//! Every Phobos pass: its flag, what it does, where it runs, its options and its body.
//!
//! MLIR cannot register a pass written against the C API by name, so this table is how
//! `--pass-pipeline` strings, `phobos-opt --<flag>` and `--list-passes` find Phobos passes.

use crate::external::PassFn;
use std::collections::BTreeMap;

/// One option of a pass.
#[derive(Clone, Copy, Debug)]
pub struct OptInfo {
    pub name: &'static str,
    pub help: &'static str,
    pub default: &'static str,
}

/// One pass.
#[derive(Clone, Copy, Debug)]
pub struct PassInfo {
    /// The pipeline flag, e.g. `convert-lane-to-gpu`.
    pub flag: &'static str,
    /// The pass's name in IR dumps and timing reports.
    pub name: &'static str,
    /// One line for `--help` and `--list-passes`.
    pub summary: &'static str,
    /// A paragraph: preconditions, postconditions, limits.
    pub description: &'static str,
    /// The op the pass runs on (`gpu.module`, `builtin.module`), or "" for any op.
    pub anchor: &'static str,
    pub options: &'static [OptInfo],
    pub run: PassFn,
}

/// Parsed `{key=value ...}` options of a pass, defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct Options(pub BTreeMap<String, String>);

impl Options {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(|s| s.as_str())
    }
    pub fn int(&self, key: &str) -> Option<i64> {
        self.get(key).and_then(|v| v.parse().ok())
    }
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.get(key), Some("1" | "true"))
    }
}

/// The passes, in the order `--list-passes` shows them.
pub fn passes() -> &'static [PassInfo] {
    crate::PASSES
}

/// The pass with this flag, with its index in the table.
pub fn find(flag: &str) -> Option<(usize, &'static PassInfo)> {
    passes().iter().enumerate().find(|(_, p)| p.flag == flag)
}

/// Splits an option string `a=1 b="x y" c` into pairs (a bare key means `true`).
pub fn split_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        let mut value = String::from("true");
        if chars.peek() == Some(&'=') {
            chars.next();
            value.clear();
            let mut depth = 0i32;
            let mut quote = false;
            while let Some(&c) = chars.peek() {
                if !quote && depth == 0 && c.is_whitespace() {
                    break;
                }
                match c {
                    '"' => quote = !quote,
                    '{' if !quote => depth += 1,
                    '}' if !quote => depth -= 1,
                    _ => {}
                }
                if c != '"' {
                    value.push(c);
                }
                chars.next();
            }
            if quote {
                return Err(format!("unterminated quote in the value of option '{key}'"));
            }
        }
        if key.is_empty() {
            return Err("empty option name".into());
        }
        if out.iter().any(|(k, _)| *k == key) {
            return Err(format!("option '{key}' is given twice"));
        }
        out.push((key, value));
    }
}

/// Checks `text` against the options `info` declares and fills in defaults.
pub fn parse_options(flag: &str, declared: &[OptInfo], text: &str) -> Result<Options, String> {
    let mut opts = Options::default();
    for o in declared {
        if !o.default.is_empty() {
            opts.0.insert(o.name.to_string(), o.default.to_string());
        }
    }
    for (k, v) in split_options(text)? {
        if !declared.iter().any(|o| o.name == k) {
            let known: Vec<&str> = declared.iter().map(|o| o.name).collect();
            return Err(if known.is_empty() {
                format!("'{flag}' takes no options, got '{k}'")
            } else {
                format!("'{flag}' has no option '{k}' (it has: {})", known.join(", "))
            });
        }
        // A chip is checked where it is given, not where a pass first needs its facts.
        if k == "chip" {
            crate::target::chip(&v).map_err(|e| format!("'{flag}': {e}"))?;
        }
        opts.0.insert(k, v);
    }
    Ok(opts)
}

#[cfg(test)]
mod tests {
    use super::split_options;

    #[test]
    fn options_split_on_spaces_outside_quotes_and_braces() {
        let got = split_options(r#"chip=sm_90 l="/a b/c.bc" nested={x=1 y=2} flag"#).unwrap();
        let want = [("chip", "sm_90"), ("l", "/a b/c.bc"), ("nested", "{x=1 y=2}"), ("flag", "true")];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v.to_string())));
        assert!(split_options("a=1 a=2").unwrap_err().contains("given twice"));
        assert!(split_options("a=\"x").unwrap_err().contains("unterminated quote"));
    }
}
