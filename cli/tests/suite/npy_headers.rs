//! `.npy` headers read as NumPy reads them: a differential test of `phobos_runtime::npy::read` against
//! `np.load` on a few thousand generated and mutated headers (quoting, repeated and missing
//! keys, every dtype spelling, Python's number and string literals, line structure, format
//! versions, sizes). Where NumPy refuses a file Phobos refuses it; where NumPy reads one of the
//! dtypes Phobos holds, Phobos reads the same dtype, shape and values. Phobos may refuse what
//! NumPy reads only for what it does not support (other dtypes, big-endian, Fortran order,
//! negative sizes), and says so.

use phobos_cli::selftest::Rng;
use std::fmt::Write as _;

const DESCRS: &[&str] = &[
    "<f4",
    "f4",
    "=f4",
    "|f4",
    ">f4",
    "<f",
    "f",
    "float32",
    "<float32",
    "single",
    "float",
    "double",
    "d",
    "e",
    "half",
    "<f2",
    "f8",
    "|b1",
    "b1",
    "?",
    "<?",
    "bool",
    "bool_",
    "|i1",
    "b",
    ">b",
    "int8",
    "byte",
    "B",
    "u1",
    "uint8",
    "ubyte",
    "<i2",
    "h",
    "short",
    "int16",
    "<u2",
    "H",
    "ushort",
    "<i4",
    "i",
    "intc",
    "int32",
    "<I",
    "uintc",
    "<i8",
    "q",
    "l",
    "n",
    "p",
    "int",
    "int_",
    "long",
    "longlong",
    "intp",
    "<u8",
    "Q",
    "L",
    "N",
    "P",
    "uint",
    "ulong",
    "ulonglong",
    "uintp",
    "uint64",
    ">i4",
    ">u2",
    "c8",
    "<c16",
    "O",
    "S3",
    "U2",
    "V4",
    "<M8[ns]",
    "g",
    "f16",
    "I4",
    "F4",
    "i0",
    "f3",
    " <f4",
    "<f4 ",
    "",
    "<",
    "float128",
    "Float32",
];

const SHAPES: &[&str] = &[
    "()",
    "(3,)",
    "(2, 3)",
    "(2,3,)",
    "(2, 3, )",
    "(1, 1, 2)",
    "[2, 3]",
    "(2.0,)",
    "(True, 2)",
    "(False,)",
    "(-1,)",
    "(0x2, 0o3)",
    "(0b10,)",
    "(1_0,)",
    "(007,)",
    "(00,)",
    "(2L,)",
    "(3 L,)",
    "((2))",
    "(+2,)",
    "(-(2),)",
    "(-(-2),)",
    "(--2,)",
    "2",
    "(2)",
    "(,)",
    "( )",
    "(None,)",
    "(2, None)",
    "(99999999999999999999999,)",
    "(2 ,3)",
    "(\n2,\n3)",
    "(2, # dims\n3)",
    "(2, \\\n3)",
    "(2j,)",
    "(1+2j,)",
    "(0,)",
    "(0, 5)",
    // Empty but too big for NumPy (item size times the sizes, zeros as 1, past 2^63 - 1).
    "(0, 4611686018427387904)",
    "(4611686018427387904, 0)",
    "(0, 1152921504606846976)",
    "(0, 576460752303423488)",
    "(0, 9223372036854775807)",
    "(0, 3, 0, 3074457345618258602)",
    "{2, 3}",
    "(2, 3",
    "2, 3",
    "('2',)",
    "(2, 3)[0]",
];

const ORDERS: &[&str] = &["False", "True", "0", "1", "None", "'False'", "false", "(False)", "not True"];

const QUOTES: &[(&str, &str)] =
    &[("'", "'"), ("\"", "\""), ("'''", "'''"), ("\"\"\"", "\"\"\""), ("r'", "'"), ("u'", "'"), ("R\"", "\""), ("b'", "'"), ("f'", "'")];

const ENDINGS: &[&str] =
    &["", " ", "\n", "  \n", "\n  ", "\n\t", "\n\n", " # comment\n", "\n# comment", "\r\n", "\\\n", "\n  \n", " x", ",", "\n}", "\x0c\n"];

/// One generated file: its bytes, and what was mutated (for the failure message).
fn case(rng: &mut Rng) -> (Vec<u8>, String) {
    let pick = |rng: &mut Rng, xs: &[&'static str]| xs[rng.below(xs.len())];
    let descr = if rng.below(2) == 0 { pick(rng, DESCRS) } else { ["<f4", "|b1", "<i8", "<f2", "|u1"][rng.below(5)] };
    let mut shape = if rng.below(3) == 0 { pick(rng, SHAPES).to_string() } else { ["(2, 3)", "(6,)", "()", "(3, 0)"][rng.below(4)].into() };
    let order = if rng.below(6) == 0 { pick(rng, ORDERS) } else { "False" };
    if rng.below(40) == 0 {
        // Thousands of dimensions.
        shape = format!("({})", vec!["1"; 1 + rng.below(5000)].join(", "));
    }
    let quote = |rng: &mut Rng, s: &str| {
        if rng.below(6) == 0 {
            let (a, b) = QUOTES[rng.below(QUOTES.len())];
            format!("{a}{s}{b}")
        } else if rng.below(12) == 0 {
            // An escape or an implicit concatenation spelling the same string.
            let mut cs = s.chars();
            let first = cs.next().map(|c| format!("\\x{:02x}", c as u32)).unwrap_or_default();
            if rng.below(2) == 0 {
                format!("'{first}{}'", cs.as_str())
            } else {
                format!("'{}' \"{}\"", &s[..s.len() / 2], &s[s.len() / 2..])
            }
        } else {
            format!("'{s}'")
        }
    };
    let mut entries = vec![
        (quote(rng, "descr"), quote(rng, descr)),
        (quote(rng, "fortran_order"), order.to_string()),
        (quote(rng, "shape"), shape.clone()),
    ];
    match rng.below(20) {
        0 => entries.push((quote(rng, "extra"), "1".into())),
        1 => {
            entries.remove(rng.below(3));
        }
        2 => {
            // A repeated key: the last value wins in Python.
            let k = rng.below(3);
            let again = match k {
                0 => {
                    let d = pick(rng, DESCRS);
                    quote(rng, d)
                }
                1 => pick(rng, ORDERS).to_string(),
                _ => pick(rng, SHAPES).to_string(),
            };
            let key = entries[k].0.clone();
            entries.insert(rng.below(4), (key, again));
        }
        3 => entries.push(("'Descr'".into(), "'<f4'".into())),
        4 => entries.push(("[1]".into(), "2".into())),
        _ => {}
    }
    let n = entries.len();
    for i in 0..n {
        let j = rng.below(n);
        entries.swap(i, j);
    }
    let sep = [", ", ",", " , ", ",\n ", ", # c\n"][rng.below(5)];
    let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let trailing = if rng.below(2) == 0 { ", " } else { "" };
    let mut header = format!("{{{}{trailing}}}", body.join(sep));
    match rng.below(30) {
        0 => header = format!("({header})"),
        1 => header = format!("\n{header}"),
        2 => header = format!("  \t{header}"),
        3 => header = format!("\n  {header}"),
        4 => header = format!("[{header}]"),
        5 => header = format!("{header}, "),
        _ => {}
    }
    if rng.below(3) == 0 {
        header.push_str(pick(rng, ENDINGS));
    }
    let mut header = header.into_bytes();
    if rng.below(15) == 0 {
        // Byte flips.
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(header.len());
            let flips = b"{}()[]:,'\"\\#\n 0aL-+.\xe9\x00";
            header[at] = flips[rng.below(flips.len())];
        }
    }
    let major: u8 = [1, 1, 1, 1, 2, 2, 3, 3, 4][rng.below(9)];
    let minor: u8 = if rng.below(20) == 0 { 1 } else { 0 };
    if rng.below(25) == 0 {
        header.extend(std::iter::repeat_n(b' ', 10_000));
    }
    let pad = if major == 1 { 10 } else { 12 };
    header.extend(std::iter::repeat_n(b' ', (64 - (pad + header.len() + 1) % 64) % 64));
    header.push(b'\n');
    let mut f = b"\x93NUMPY".to_vec();
    f.extend([major, minor]);
    if major == 1 {
        f.extend((header.len().min(65535) as u16).to_le_bytes());
    } else {
        f.extend((header.len() as u32).to_le_bytes());
    }
    f.extend(&header);
    let data = match rng.below(10) {
        0 => 0,
        1 => 5,
        2 => 48,
        _ => 200,
    };
    f.extend((0..data).map(|i| (i * 37 % 256) as u8));
    (f, format!("v{major}.{minor} header {:?}", String::from_utf8_lossy(&header).chars().take(300).collect::<String>()))
}

/// What `np.load` made of each file: `ok DTYPE SHAPE HEX` or `err KIND`, a line per file.
const LOADER: &str = r#"
import sys, warnings, numpy as np
warnings.simplefilter("ignore")
for path in sys.argv[1:]:
    try:
        a = np.load(path, allow_pickle=False)
        # An empty array has no bytes (converting one of a huge shape would itself overflow).
        body = b"" if a.size == 0 else (a != 0).astype(np.uint8).tobytes() if a.dtype == np.bool_ else np.ascontiguousarray(a).tobytes()
        print("ok", a.dtype.str, ",".join(map(str, a.shape)), "F" if np.isfortran(a) and a.ndim > 1 else "C", body.hex())
    except BaseException as e:
        print("err", type(e).__name__)
"#;

#[test]
fn npy_headers_read_as_numpy_reads_them() {
    let dir = super::workspace_root().join("target/npy-headers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut rng = Rng::new(0x6e70_7931);
    let cases: Vec<(std::path::PathBuf, String)> = (0..4000)
        .map(|i| {
            let (bytes, what) = case(&mut rng);
            let p = dir.join(format!("{i}.npy"));
            std::fs::write(&p, bytes).expect("write a case");
            (p, what)
        })
        .collect();
    let python = super::workspace_root().join(".tools/python");
    let out = std::process::Command::new("python3")
        .env("PYTHONPATH", &python)
        .arg("-c")
        .arg(LOADER)
        .args(cases.iter().map(|(p, _)| p))
        .output()
        .expect("python3 runs (third_party/install.sh installs NumPy into .tools/python)");
    assert!(out.status.success(), "the NumPy loader failed: {}", String::from_utf8_lossy(&out.stderr));
    let verdicts: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(verdicts.len(), cases.len(), "one verdict per file");
    let (mut both_read, mut both_refused, mut unsupported) = (0, 0, 0);
    let mut failures = String::new();
    for ((path, what), verdict) in cases.iter().zip(&verdicts) {
        let ours = phobos_runtime::npy::read(path);
        let words: Vec<&str> = verdict.split(' ').collect();
        match (words[0], &ours) {
            ("err", Ok(a)) => {
                let _ = writeln!(
                    failures,
                    "NumPy refuses ({}) but Phobos reads {:?} of {} dimensions: {what}",
                    words[1],
                    a.dtype,
                    a.shape.len()
                );
            }
            ("err", Err(_)) => both_refused += 1,
            ("ok", Ok(a)) => {
                let shape: Vec<u64> = words[2].split(',').filter(|s| !s.is_empty()).map(|s| s.parse().expect("a size")).collect();
                let dtype = words[1].trim_start_matches(['<', '|', '=']);
                let same = a.dtype.numpy() == numpy_name(dtype) && a.shape == shape && hex(&a.data) == words.get(4).copied().unwrap_or("");
                if same {
                    both_read += 1;
                } else {
                    let _ = writeln!(
                        failures,
                        "NumPy reads {verdict:.80} but Phobos reads {:?} of {} dimensions: {what}",
                        a.dtype,
                        a.shape.len()
                    );
                }
            }
            ("ok", Err(e)) => {
                // Allowed only for what Phobos does not hold, and said so.
                let ok = ["unsupported dtype", "big-endian", "Fortran-order", "negative size"].iter().any(|w| e.contains(w));
                if ok {
                    unsupported += 1;
                } else {
                    let _ = writeln!(failures, "NumPy reads {verdict:.80} but Phobos refuses: {e}: {what}");
                }
            }
            _ => panic!("a verdict: {verdict}"),
        }
    }
    eprintln!("npy headers: {both_read} read alike, {both_refused} refused by both, {unsupported} read by NumPy only (unsupported)");
    assert!(failures.is_empty(), "Phobos and NumPy disagree:\n{failures}");
    assert!(both_read > 600 && both_refused > 600, "the generator reaches both outcomes");
}

fn numpy_name(code: &str) -> &'static str {
    match code {
        "b1" => "bool",
        "i1" => "int8",
        "i2" => "int16",
        "i4" => "int32",
        "i8" => "int64",
        "u1" => "uint8",
        "u2" => "uint16",
        "u4" => "uint32",
        "u8" => "uint64",
        "f2" => "float16",
        "f4" => "float32",
        "f8" => "float64",
        _ => "other",
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A `.npy` file of format `version` with `header` and 64 bytes of data.
fn file(version: u8, header: &str) -> Vec<u8> {
    let mut b = b"\x93NUMPY".to_vec();
    b.extend([version, 0]);
    if version == 1 {
        b.extend((header.len() as u16).to_le_bytes());
    } else {
        b.extend((header.len() as u32).to_le_bytes());
    }
    b.extend(header.as_bytes());
    b.extend([0u8; 64]);
    b
}

/// Python's literal forms, as `ast.literal_eval` takes them, in the places NumPy reads.
#[test]
fn npy_header_literals_as_python_reads_them() {
    use phobos_runtime::npy_header::parse;
    let with_shape =
        |shape: &str| parse(&file(3, &format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}}}"))).map(|(h, _)| h.shape);
    assert_eq!(with_shape("(3, )"), Ok(vec![3]));
    assert_eq!(with_shape("((3),)"), Ok(vec![3]));
    assert_eq!(with_shape("(+3,)"), Ok(vec![3]));
    assert_eq!(with_shape("(0x1F, 0o7, 0b1, 1_0)"), Ok(vec![31, 7, 1, 10]));
    assert_eq!(with_shape("(00,)"), Ok(vec![0]));
    assert_eq!(with_shape("()"), Ok(vec![]));
    for bad in ["(--3,)", "(-(-3),)", "(007,)", "(1L,)", "(3)", "[3]", "(3.0,)", "(1+2j,)", "(True,)", "(-1,)", "(,)", "(3 4)"] {
        assert!(with_shape(bad).is_err(), "{bad} is refused");
    }
    // Python 2's longs, in formats 1.0 and 2.0 only (NumPy's _filter_header).
    let longs = "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3 L)}";
    assert_eq!(parse(&file(1, longs)).map(|(h, _)| h.shape), Ok(vec![2, 3]));
    assert!(parse(&file(3, longs)).is_err());
    let with_descr = |d: &str| parse(&file(1, &format!("{{'descr': {d}, 'fortran_order': False, 'shape': (2,)}}"))).map(|(h, _)| h.descr);
    assert_eq!(with_descr(r#"'<' "f4""#), Ok("<f4".into()));
    assert_eq!(with_descr(r"'\x3cf4'"), Ok("<f4".into()));
    assert_eq!(with_descr("r'<f4'"), Ok("<f4".into()));
    assert_eq!(with_descr("'''<f4'''"), Ok("<f4".into()));
    for bad in ["b'<f4'", "f'<f4'", "b'<' 'f4'", "<f4"] {
        assert!(with_descr(bad).is_err(), "{bad} is refused");
    }
    // Line structure: a dict may span lines; nothing but blank lines after it; no indent.
    let whole = |h: &str| parse(&file(3, h)).is_ok();
    let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}";
    assert!(whole(&format!("{dict}  \n")));
    assert!(whole(&format!("\n{dict}\n  \n")));
    assert!(whole(&format!("{dict} # a comment")));
    assert!(whole("{'descr':\n '<f4',\n 'fortran_order': False, 'shape': (2,)}"));
    assert!(!whole(&format!("{dict}\n  ")), "an indented last line");
    assert!(!whole(&format!("\n  {dict}")), "an indented first line");
    assert!(!whole(&format!("{dict}\n{dict}")), "two expressions");
    assert!(!whole(&format!("{dict}\\\n")), "a continuation at the end");
    assert!(!whole(&format!("{}{}", "(".repeat(201), ")".repeat(201))), "brackets 201 deep");
    // Keys: exactly three, the last repeated value wins, unhashable keys refused.
    let dup = "{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': ()}";
    assert_eq!(parse(&file(1, dup)).map(|(h, _)| h.descr), Ok("<i4".into()));
    assert!(parse(&file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}")).is_err());
    assert!(parse(&file(1, "{'descr': '<f4', 'fortran_order': False, [1]: 2, 'shape': (2,)}")).is_err());
    assert!(parse(&file(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}")).is_err());
}

/// A PTX's undefined functions are named; PTX's own system calls are not.
#[test]
fn ptx_unresolved_names_the_functions_nothing_defines() {
    let ptx = ".extern .func  (.param .b32 func_retval0) __nv_expf\n(\n.param .b32 __nv_expf_param_0\n);\n.extern .func vprintf(\n";
    assert_eq!(phobos_compiler::ptx::unresolved(ptx), vec!["__nv_expf".to_string()]);
    assert!(phobos_compiler::ptx::unresolved(".visible .entry k(\n").is_empty());
}
