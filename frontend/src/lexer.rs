//! Tokens of the Phobos language.

use crate::span::{Diag, Result, Span};

/// A token kind.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    /// A string literal's contents: `"(128,4):(4,1)"` (a layout in `phobos layout` notation).
    Str(String),
    /// Punctuation and operators, as written: `(`, `:+`, `<<=`, ...
    Punct(&'static str),
    Eof,
}

/// A token with its span, and whether a newline came before it (a statement may end there).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    pub newline_before: bool,
}

// Longest first, so that `<<=` wins over `<<` and `<`.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", ":+", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "(", ")",
    "[", "]", "{", "}", "<", ">", ",", ":", "=", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", ".", "@",
];

/// Splits `text` into tokens; the last one is `Eof`.
pub fn lex(text: &str) -> Result<Vec<Token>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut newline = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            newline = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(Diag::error(Span::new(start, start + 2), "unterminated /* comment"));
                }
                if b[i] == b'\n' {
                    newline = true;
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Tok::Ident(text[start..i].to_string())
        } else if c.is_ascii_digit() {
            lex_number(text, &mut i)?
        } else if c == b'"' {
            // No escapes: layouts never need them. A string ends on its line.
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(Diag::error(Span::new(start, start + 1), "unterminated string: a string ends with '\"' on its line"));
            }
            i += 1;
            Tok::Str(text[start + 1..i - 1].to_string())
        } else if let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            i += p.len();
            Tok::Punct(p)
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(Diag::error(Span::new(i, i + ch.len_utf8()), format!("unexpected character '{ch}'")));
        };
        out.push(Token { tok, span: Span::new(start, i), newline_before: newline });
        newline = false;
    }
    out.push(Token { tok: Tok::Eof, span: Span::new(b.len(), b.len()), newline_before: true });
    Ok(out)
}

fn lex_number(text: &str, i: &mut usize) -> Result<Tok> {
    let b = text.as_bytes();
    let start = *i;
    if b[*i] == b'0' && matches!(b.get(*i + 1), Some(b'x' | b'X')) {
        *i += 2;
        while *i < b.len() && (b[*i].is_ascii_hexdigit() || b[*i] == b'_') {
            *i += 1;
        }
        let digits: String = text[start + 2..*i].chars().filter(|c| *c != '_').collect();
        return i64::from_str_radix(&digits, 16)
            .map(Tok::Int)
            .map_err(|_| Diag::error(Span::new(start, *i), format!("bad hex literal '{}'", &text[start..*i])));
    }
    while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'_') {
        *i += 1;
    }
    let mut float = false;
    // A '.' followed by a digit makes a float; `x.0`-style fields do not occur after numbers.
    if *i < b.len() && b[*i] == b'.' && b.get(*i + 1).is_some_and(|c| c.is_ascii_digit()) {
        float = true;
        *i += 1;
        while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'_') {
            *i += 1;
        }
    }
    if *i < b.len() && (b[*i] == b'e' || b[*i] == b'E') {
        let save = *i;
        *i += 1;
        if *i < b.len() && (b[*i] == b'+' || b[*i] == b'-') {
            *i += 1;
        }
        if *i < b.len() && b[*i].is_ascii_digit() {
            float = true;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
        } else {
            *i = save;
        }
    }
    let t: String = text[start..*i].chars().filter(|c| *c != '_').collect();
    let span = Span::new(start, *i);
    if float {
        t.parse::<f64>().map(Tok::Float).map_err(|_| Diag::error(span, format!("bad float literal '{t}'")))
    } else {
        t.parse::<i64>().map(Tok::Int).map_err(|_| Diag::error(span, format!("integer literal '{t}' does not fit in 64 bits")))
    }
}
