//! The header of an `.npy` file, read as NumPy 2 reads it (`numpy.lib.format`): the magic and
//! version (1.0, 2.0, 3.0), a header of at most 10,000 characters (latin-1 for versions 1 and 2,
//! UTF-8 for 3) holding a Python dict literal as `ast.literal_eval` takes it, with exactly the
//! keys `descr`, `fortran_order` and `shape` (a repeated key: the last value wins), a `shape`
//! that is a tuple of ints, a `fortran_order` that is a bool, and a `descr` that NumPy's
//! `np.dtype` understands. Versions 1 and 2 also take Python 2's `3L` (NumPy's `_filter_header`).
//! A differential test (`cli/tests/suite/npy_headers.rs`) holds this to `np.load`.

/// What the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The dtype as written (`<f4`).
    pub descr: String,
    /// Whether the data is in Fortran (column-major) order.
    pub fortran_order: bool,
    /// The shape.
    pub shape: Vec<u64>,
}

/// NumPy's default `max_header_size`.
const MAX_HEADER_CHARS: usize = 10_000;

/// NumPy's limit on an array's dimensions.
const MAX_DIMS: usize = 64;

/// Python's limit on nested brackets (its tokenizer's MAXLEVEL).
const MAX_NESTING: usize = 200;

/// Reads the magic, version and header of `bytes`; returns the header and where the data
/// starts.
pub fn parse(bytes: &[u8]) -> Result<(Header, usize), String> {
    if bytes.get(..6) != Some(b"\x93NUMPY".as_slice()) {
        return Err("not an .npy file (no NUMPY magic and header)".into());
    }
    let (major, minor) = match bytes.get(6..8) {
        Some(v) => (v[0], v[1]),
        None => return Err("not an .npy file (no NUMPY magic and header)".into()),
    };
    if !(1..=3).contains(&major) || minor != 0 {
        return Err(format!(".npy format version {major}.{minor}: NumPy writes and reads 1.0, 2.0 and 3.0"));
    }
    let (len, at) = if major == 1 {
        let l = bytes.get(8..10).ok_or("the .npy header is cut short")?;
        (u16::from_le_bytes([l[0], l[1]]) as usize, 10usize)
    } else {
        let l = bytes.get(8..12).ok_or("the .npy header is cut short")?;
        (u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize, 12)
    };
    let raw = at.checked_add(len).and_then(|end| bytes.get(at..end)).ok_or("the .npy header is cut short")?;
    let text: String = if major == 3 {
        std::str::from_utf8(raw).map_err(|_| "the .npy header (format 3.0) is not UTF-8")?.to_string()
    } else {
        raw.iter().map(|b| *b as char).collect()
    };
    let chars = text.chars().count();
    if chars > MAX_HEADER_CHARS {
        return Err(format!("the .npy header has {chars} characters; NumPy reads at most {MAX_HEADER_CHARS}"));
    }
    let value = literal_eval(&text, major <= 2).map_err(|e| format!("the .npy header is not a Python literal: {e}"))?;
    Ok((header_of(value)?, at + len))
}

/// A Python literal, as far as `.npy` headers need one.
#[derive(Clone, Debug, PartialEq)]
enum Py {
    Str(String),
    Bytes,
    /// An int (None: beyond 128 bits).
    Int(Option<i128>),
    Float,
    Complex,
    Bool(bool),
    None,
    Ellipsis,
    Tuple(Vec<Py>),
    List(Vec<Py>),
    Set(Vec<Py>),
    Dict(Vec<(Py, Py)>),
}

impl Py {
    fn kind(&self) -> &'static str {
        match self {
            Py::Str(_) => "a str",
            Py::Bytes => "bytes",
            Py::Int(_) => "an int",
            Py::Float => "a float",
            Py::Complex => "a complex",
            Py::Bool(_) => "a bool",
            Py::None => "None",
            Py::Ellipsis => "Ellipsis",
            Py::Tuple(_) => "a tuple",
            Py::List(_) => "a list",
            Py::Set(_) => "a set",
            Py::Dict(_) => "a dict",
        }
    }
    fn hashable(&self) -> bool {
        match self {
            Py::List(_) | Py::Set(_) | Py::Dict(_) => false,
            Py::Tuple(items) => items.iter().all(Py::hashable),
            _ => true,
        }
    }
}

/// NumPy's checks of the dict: the keys, the shape, the order, the dtype.
fn header_of(v: Py) -> Result<Header, String> {
    let Py::Dict(entries) = v else { return Err(format!("the .npy header is {}, not a dict", v.kind())) };
    let mut keys: Vec<String> = Vec::new();
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    for (k, val) in entries {
        let Py::Str(k) = k else {
            return Err(format!("the .npy header has a key that is {}; its keys are 'descr', 'fortran_order' and 'shape'", k.kind()));
        };
        match k.as_str() {
            "descr" => descr = Some(val),
            "fortran_order" => fortran = Some(val),
            "shape" => shape = Some(val),
            _ => {}
        }
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let (Some(descr), Some(fortran), Some(shape)) = (descr, fortran, shape) else {
        return Err(format!("the .npy header has the keys {}; NumPy needs exactly 'descr', 'fortran_order' and 'shape'", quoted(&keys)));
    };
    if keys.len() != 3 {
        return Err(format!("the .npy header has the keys {}; NumPy needs exactly 'descr', 'fortran_order' and 'shape'", quoted(&keys)));
    }
    let Py::Tuple(dims) = shape else { return Err(format!("the .npy shape is {}, not a tuple of ints", shape.kind())) };
    if dims.len() > MAX_DIMS {
        return Err(format!("the .npy shape has {} dimensions; NumPy arrays have at most {MAX_DIMS}", dims.len()));
    }
    let mut out = Vec::with_capacity(dims.len());
    for d in &dims {
        let v = match d {
            Py::Int(Some(v)) => *v,
            Py::Int(None) => return Err("the .npy shape has a size beyond 2^127".into()),
            other => return Err(format!("the .npy shape holds {}, not an int", other.kind())),
        };
        if v < 0 {
            return Err(format!("the .npy shape has a negative size ({v})"));
        }
        out.push(u64::try_from(v).map_err(|_| format!("the .npy shape has a size beyond 2^64 ({v})"))?);
    }
    let Py::Bool(fortran_order) = fortran else { return Err(format!("the .npy fortran_order is {}, not True or False", fortran.kind())) };
    let descr = match descr {
        Py::Str(s) => s,
        Py::List(_) | Py::Tuple(_) => return Err("the .npy dtype is structured (a list of fields); only plain dtypes are supported".into()),
        other => return Err(format!("the .npy descr is {}, not a dtype", other.kind())),
    };
    Ok(Header { descr, fortran_order, shape: out })
}

fn quoted(keys: &[String]) -> String {
    if keys.is_empty() {
        return "(none)".into();
    }
    let mut ks: Vec<String> = keys.iter().map(|k| format!("'{}'", k.chars().take(40).collect::<String>())).collect();
    ks.sort();
    if ks.len() > 6 {
        let n = ks.len();
        ks.truncate(6);
        ks.push(format!("... ({n} keys)"));
    }
    ks.join(", ")
}

/// `ast.literal_eval(text)` (leading spaces and tabs stripped first, as it does); `py2_longs`
/// drops a name `L` right after a number, as NumPy's `_filter_header` does for versions 1
/// and 2.
fn literal_eval(text: &str, py2_longs: bool) -> Result<Py, String> {
    let text = text.trim_start_matches([' ', '\t']);
    if text.contains('\0') {
        return Err("it holds a NUL byte".into());
    }
    let mut toks = lex(text)?;
    if py2_longs {
        let mut kept: Vec<Tok> = Vec::with_capacity(toks.len());
        for t in toks {
            let after_number = matches!(kept.last(), Some(Tok::Num(_)));
            if !(after_number && t == Tok::Name("L".into())) {
                kept.push(t);
            }
        }
        toks = kept;
    }
    let mut p = Parser { toks, at: 0 };
    let v = p.expr(0)?;
    match p.peek() {
        None => Ok(v),
        Some(Tok::Op(',')) => Err("a tuple at the top, not a dict".into()),
        Some(t) => Err(format!("unexpected {} after the literal", t.describe())),
    }
}

/// A number token's value.
#[derive(Clone, Debug, PartialEq)]
enum Num {
    Int(Option<i128>),
    Float,
    Complex,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Str(String),
    Bytes,
    /// An f-string: never a literal.
    FStr,
    Num(Num),
    Name(String),
    /// `( ) [ ] { } , : + -`, `.` for `...`, and anything else Python has (never in a literal).
    Op(char),
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Str(_) | Tok::Bytes | Tok::FStr => "a string".into(),
            Tok::Num(_) => "a number".into(),
            Tok::Name(n) => format!("name '{}'", n.chars().take(20).collect::<String>()),
            Tok::Op(c) => format!("'{c}'"),
        }
    }
}

/// Python's tokens, with its line structure: inside brackets lines join freely; outside, a
/// line ends the expression, and a later line may only be blank (an indented last line with
/// nothing but spaces is an `IndentationError`, as Python has it).
fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut toks = Vec::new();
    let mut depth = 0usize;
    // At the start of a line outside brackets (its indentation matters).
    let mut line_start = false;
    // A newline ended the expression: only blank lines may follow.
    let mut ended = false;
    while i < cs.len() {
        let c = cs[i];
        if line_start && depth == 0 {
            // Measure the indentation of this line; blank and comment-only lines are skipped.
            let mut col = 0usize;
            let mut j = i;
            while j < cs.len() && matches!(cs[j], ' ' | '\t' | '\x0c') {
                col = match cs[j] {
                    ' ' => col + 1,
                    '\t' => (col / 8 + 1) * 8,
                    _ => 0,
                };
                j += 1;
            }
            match cs.get(j) {
                None if col > 0 => return Err("unexpected indent".into()),
                None => return Ok(toks),
                Some('\n' | '\r' | '#') => {}
                Some(_) if col > 0 => return Err("unexpected indent".into()),
                Some(_) if ended => return Err("a second expression after the first".into()),
                Some(_) => {}
            }
            line_start = false;
            i = j;
            continue;
        }
        match c {
            ' ' | '\t' | '\x0c' => i += 1,
            '#' => {
                while i < cs.len() && !matches!(cs[i], '\n' | '\r') {
                    i += 1;
                }
            }
            '\\' => {
                // A line continuation: a backslash at the end of a line.
                let next = if cs.get(i + 1) == Some(&'\r') && cs.get(i + 2) == Some(&'\n') { 3 } else { 2 };
                match cs.get(i + 1) {
                    Some('\n' | '\r') if i + next < cs.len() => i += next,
                    Some('\n' | '\r') => return Err("a line continuation at the end".into()),
                    _ => return Err("a stray backslash".into()),
                }
            }
            '\n' | '\r' => {
                i += if c == '\r' && cs.get(i + 1) == Some(&'\n') { 2 } else { 1 };
                if depth == 0 {
                    if !toks.is_empty() {
                        ended = true;
                    }
                    line_start = true;
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth >= MAX_NESTING {
                    return Err(format!("brackets nest {MAX_NESTING} deep; Python stops there"));
                }
                toks.push(Tok::Op(c));
                i += 1;
            }
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1).ok_or_else(|| format!("an unmatched '{c}'"))?;
                toks.push(Tok::Op(c));
                i += 1;
            }
            '0'..='9' => {
                let (n, len) = number(&cs[i..])?;
                toks.push(Tok::Num(n));
                i += len;
            }
            '.' if cs.get(i + 1).is_some_and(char::is_ascii_digit) => {
                let (n, len) = number(&cs[i..])?;
                toks.push(Tok::Num(n));
                i += len;
            }
            '\'' | '"' => {
                let (t, len) = string(&cs[i..], "")?;
                toks.push(t);
                i += len;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                    i += 1;
                }
                let word: String = cs[start..i].iter().collect();
                let lower = word.to_ascii_lowercase();
                let prefix = ["r", "u", "b", "br", "rb", "f", "fr", "rf"].contains(&lower.as_str());
                if prefix && matches!(cs.get(i), Some('\'' | '"')) {
                    let (t, len) = string(&cs[i..], &lower)?;
                    toks.push(t);
                    i += len;
                } else {
                    toks.push(Tok::Name(word));
                }
            }
            c => {
                toks.push(Tok::Op(c));
                i += 1;
            }
        }
        if ended && !line_start && depth == 0 && !toks.is_empty() && !matches!(c, ' ' | '\t' | '\x0c' | '#') {
            return Err("a second expression after the first".into());
        }
    }
    if depth > 0 {
        return Err("unclosed brackets".into());
    }
    Ok(toks)
}

/// A Python number literal at the start of `cs`: its value's kind and its length.
fn number(cs: &[char]) -> Result<(Num, usize), String> {
    let digits = |from: usize, ok: &dyn Fn(char) -> bool| -> Result<usize, String> {
        // digit (["_"] digit)*: returns the end.
        let mut j = from;
        if !cs.get(j).is_some_and(|c| ok(*c)) {
            return Err("a malformed number".into());
        }
        while j < cs.len() {
            if ok(cs[j]) {
                j += 1;
            } else if cs[j] == '_' && cs.get(j + 1).is_some_and(|c| ok(*c)) {
                j += 2;
            } else {
                break;
            }
        }
        Ok(j)
    };
    let dec = |c: char| c.is_ascii_digit();
    // A name right after a number (`3L`) is its own token: the parser refuses it, and NumPy's
    // filter of Python 2 headers drops an `L` first.
    let tail = |j: usize| -> Result<usize, String> { Ok(j) };
    // 0x / 0o / 0b integers.
    if cs[0] == '0' && matches!(cs.get(1), Some('x' | 'X' | 'o' | 'O' | 'b' | 'B')) {
        let radix = match cs[1].to_ascii_lowercase() {
            'x' => 16,
            'o' => 8,
            _ => 2,
        };
        let ok = move |c: char| c.is_digit(radix);
        let mut j = 2;
        if cs.get(j) == Some(&'_') {
            j += 1;
        }
        let end = digits(j, &ok)?;
        let text: String = cs[2..end].iter().filter(|c| **c != '_').collect();
        return Ok((Num::Int(i128::from_str_radix(&text, radix).ok()), tail(end)?));
    }
    let mut j = 0;
    let mut float = false;
    if cs[0] != '.' {
        j = digits(0, &dec)?;
    }
    let int_end = j;
    if cs.get(j) == Some(&'.') {
        float = true;
        j += 1;
        if cs.get(j).is_some_and(|c| c.is_ascii_digit()) {
            j = digits(j, &dec)?;
        }
    }
    if matches!(cs.get(j), Some('e' | 'E')) {
        let mut k = j + 1;
        if matches!(cs.get(k), Some('+' | '-')) {
            k += 1;
        }
        if cs.get(k).is_some_and(|c| c.is_ascii_digit()) {
            j = digits(k, &dec)?;
            float = true;
        }
    }
    if matches!(cs.get(j), Some('j' | 'J')) {
        return Ok((Num::Complex, tail(j + 1)?));
    }
    if float {
        return Ok((Num::Float, tail(j)?));
    }
    let text: String = cs[..int_end].iter().filter(|c| **c != '_').collect();
    if text.len() > 1 && text.starts_with('0') && text.chars().any(|c| c != '0') {
        return Err("leading zeros in a decimal integer".into());
    }
    Ok((Num::Int(text.parse::<i128>().ok()), tail(j)?))
}

/// A string literal (after its prefix) at the start of `cs`: the token and its length.
fn string(cs: &[char], prefix: &str) -> Result<(Tok, usize), String> {
    let raw = prefix.contains('r');
    let bytes = prefix.contains('b');
    let q = cs[0];
    let triple = cs.get(1) == Some(&q) && cs.get(2) == Some(&q);
    let mut i = if triple { 3 } else { 1 };
    let mut out = String::new();
    loop {
        let Some(&c) = cs.get(i) else { return Err("an unterminated string".into()) };
        if c == q && (!triple || (cs.get(i + 1) == Some(&q) && cs.get(i + 2) == Some(&q))) {
            i += if triple { 3 } else { 1 };
            break;
        }
        if !triple && matches!(c, '\n' | '\r') {
            return Err("an unterminated string".into());
        }
        if bytes && !c.is_ascii() {
            return Err("a bytes literal with a non-ASCII character".into());
        }
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&e) = cs.get(i + 1) else { return Err("an unterminated string".into()) };
        if raw {
            // A backslash keeps the next character (a quote does not end the string).
            out.push('\\');
            out.push(e);
            i += 2;
            continue;
        }
        i += 2;
        match e {
            '\n' => {}
            '\r' => {
                if cs.get(i) == Some(&'\n') {
                    i += 1;
                }
            }
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match cs.get(i).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' if !(bytes && e != 'x') => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = cs.get(i..i + n).map(|h| h.iter().collect()).unwrap_or_default();
                let v = (hex.len() == n && hex.chars().all(|h| h.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                    .ok_or_else(|| format!("a truncated \\{e} escape"))?;
                out.push(char::from_u32(v).ok_or_else(|| format!("\\{e}{hex} is not a character"))?);
                i += n;
            }
            'N' if !bytes => return Err("a \\N{...} escape (not supported in .npy headers)".into()),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    let tok = if prefix.contains('f') {
        Tok::FStr
    } else if bytes {
        Tok::Bytes
    } else {
        Tok::Str(out)
    };
    Ok((tok, i))
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Op(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// One expression: an atom, a signed number, or `real +/- imaginary` (a complex).
    fn expr(&mut self, depth: usize) -> Result<Py, String> {
        let first = self.unary(depth)?;
        if matches!(self.peek(), Some(Tok::Op('+' | '-'))) {
            // literal_eval's one BinOp: a (signed) real number plus or minus an imaginary
            // constant.
            self.at += 1;
            let right = self.number_constant()?;
            return match (&first, right) {
                (Py::Int(_) | Py::Float, Num::Complex) => Ok(Py::Complex),
                _ => Err("an operation, not a literal".into()),
            };
        }
        Ok(first)
    }

    /// An atom, or a sign on a number constant (`-(3)` is one: parentheses make no node;
    /// `-(-3)` and `-True` are not).
    fn unary(&mut self, depth: usize) -> Result<Py, String> {
        if !matches!(self.peek(), Some(Tok::Op('+' | '-'))) {
            return self.atom(depth);
        }
        let neg = self.next() == Some(Tok::Op('-'));
        Ok(match self.number_constant()? {
            Num::Int(Some(x)) => Py::Int(Some(if neg { -x } else { x })),
            Num::Int(None) => Py::Int(None),
            Num::Float => Py::Float,
            Num::Complex => Py::Complex,
        })
    }

    /// A number token, possibly in parentheses.
    fn number_constant(&mut self) -> Result<Num, String> {
        let mut open = 0;
        while self.eat('(') {
            open += 1;
        }
        let Some(Tok::Num(n)) = self.next() else { return Err("a sign or an operation on something other than a number".into()) };
        for _ in 0..open {
            if !self.eat(')') {
                return Err("a sign or an operation on something other than a number".into());
            }
        }
        Ok(n)
    }

    fn atom(&mut self, depth: usize) -> Result<Py, String> {
        if depth > MAX_NESTING {
            return Err("nesting too deep".into());
        }
        let Some(t) = self.next() else { return Err("an unexpected end".into()) };
        Ok(match t {
            Tok::Str(s) => {
                let mut s = s;
                loop {
                    match self.peek() {
                        Some(Tok::Str(more)) => {
                            s.push_str(more);
                            self.at += 1;
                        }
                        Some(Tok::Bytes) => return Err("str and bytes literals side by side".into()),
                        Some(Tok::FStr) => return Err("an f-string".into()),
                        _ => break,
                    }
                }
                Py::Str(s)
            }
            Tok::Bytes => {
                while let Some(t) = self.peek() {
                    match t {
                        Tok::Bytes => self.at += 1,
                        Tok::Str(_) | Tok::FStr => return Err("str and bytes literals side by side".into()),
                        _ => break,
                    }
                }
                Py::Bytes
            }
            Tok::FStr => return Err("an f-string, not a literal".into()),
            Tok::Num(Num::Int(v)) => Py::Int(v),
            Tok::Num(Num::Float) => Py::Float,
            Tok::Num(Num::Complex) => Py::Complex,
            Tok::Name(n) => match n.as_str() {
                "True" => Py::Bool(true),
                "False" => Py::Bool(false),
                "None" => Py::None,
                "set" if self.peek() == Some(&Tok::Op('(')) && self.toks.get(self.at + 1) == Some(&Tok::Op(')')) => {
                    self.at += 2;
                    Py::Set(vec![])
                }
                _ => return Err(format!("the name '{}', not a literal", n.chars().take(20).collect::<String>())),
            },
            Tok::Op('.') => {
                if self.eat('.') && self.eat('.') {
                    Py::Ellipsis
                } else {
                    return Err("a stray '.'".into());
                }
            }
            Tok::Op('(') => {
                if self.eat(')') {
                    return Ok(Py::Tuple(vec![]));
                }
                let first = self.expr(depth + 1)?;
                if self.eat(')') {
                    return Ok(first);
                }
                let mut items = vec![first];
                while self.eat(',') {
                    if self.eat(')') {
                        return Ok(Py::Tuple(items));
                    }
                    items.push(self.expr(depth + 1)?);
                }
                if !self.eat(')') {
                    return Err(self.expected("',' or ')'"));
                }
                Py::Tuple(items)
            }
            Tok::Op('[') => Py::List(self.items(']', depth)?),
            Tok::Op('{') => {
                if self.eat('}') {
                    return Ok(Py::Dict(vec![]));
                }
                let first = self.expr(depth + 1)?;
                if self.eat(':') {
                    let mut entries = vec![(first, self.expr(depth + 1)?)];
                    while self.eat(',') {
                        if self.eat('}') {
                            return self.dict(entries);
                        }
                        let k = self.expr(depth + 1)?;
                        if !self.eat(':') {
                            return Err(self.expected("':'"));
                        }
                        entries.push((k, self.expr(depth + 1)?));
                    }
                    if !self.eat('}') {
                        return Err(self.expected("',' or '}'"));
                    }
                    return self.dict(entries);
                }
                let mut items = vec![first];
                while self.eat(',') {
                    if self.eat('}') {
                        return set(items);
                    }
                    items.push(self.expr(depth + 1)?);
                }
                if !self.eat('}') {
                    return Err(self.expected("',' or '}'"));
                }
                return set(items);
            }
            t => return Err(format!("unexpected {}", t.describe())),
        })
    }

    /// Items up to `close`, a trailing comma allowed.
    fn items(&mut self, close: char, depth: usize) -> Result<Vec<Py>, String> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr(depth + 1)?);
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(',') {
                return Err(self.expected(&format!("',' or '{close}'")));
            }
            if self.eat(close) {
                return Ok(items);
            }
        }
    }

    fn dict(&self, entries: Vec<(Py, Py)>) -> Result<Py, String> {
        if let Some((k, _)) = entries.iter().find(|(k, _)| !k.hashable()) {
            return Err(format!("a dict key that is {} (unhashable)", k.kind()));
        }
        Ok(Py::Dict(entries))
    }

    fn expected(&self, what: &str) -> String {
        match self.peek() {
            Some(t) => format!("expected {what}, found {}", t.describe()),
            None => format!("expected {what} before the end"),
        }
    }
}

fn set(items: Vec<Py>) -> Result<Py, String> {
    if let Some(i) = items.iter().find(|i| !i.hashable()) {
        return Err(format!("a set item that is {} (unhashable)", i.kind()));
    }
    Ok(Py::Set(items))
}
