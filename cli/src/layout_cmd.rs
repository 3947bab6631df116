//! `phobos layout [FLAGS] EXPR`: evaluate a layout expression, print it in CuTe notation, and
//! check it (the interface is pinned: tests outside the project rely on it).
//!
//! Line 1 is the result (`--coalesce`: its coarsest form); `--table` adds its values at
//! 0..size-1; `--logical SHAPE` prints an `S[...]` layout's axes over a row-major logical shape;
//! `--draw` prints the thread/value grid. Errors: one line on stderr, exit 1.

use phobos_layout::{
    query::{self, Query},
    Space,
};

#[derive(clap::Args, Debug)]
pub struct LayoutArgs {
    /// The expression, e.g. `compose((6,2):(8,2),(4,3):(3,1))` (words are joined with spaces).
    #[arg(required = true, value_name = "EXPR")]
    expr: Vec<String>,
    /// Print the values at 0..size-1 on line 2.
    #[arg(long)]
    table: bool,
    /// Print the coarsest form of the result instead.
    #[arg(long)]
    coalesce: bool,
    /// Check that the result may map into this space (docs/layouts.md, "Spaces").
    #[arg(long, value_name = "SPACE", value_parser = ["logical", "thread-value", "physical"])]
    into: Option<String>,
    /// The row-major logical shape (R,C,...) of an `S[...]` layout, or the grid of `--draw`.
    #[arg(long, value_name = "SHAPE")]
    logical: Option<String>,
    /// Draw the thread/value grid.
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "svg"])]
    draw: Option<String>,
}

pub fn layout_cmd(a: LayoutArgs) -> i32 {
    match run(&a) {
        Ok(out) => {
            out!("{out}");
            0
        }
        Err(e) => {
            errln!("phobos: error: {e}");
            1
        }
    }
}

fn run(a: &LayoutArgs) -> Result<String, String> {
    let query = Query {
        table: a.table,
        coalesce: a.coalesce,
        into: a.into.as_deref().map(|s| Space::parse(s).expect("clap checked it")),
        logical: a.logical.as_deref().map(query::parse_shape).transpose()?,
        draw: a.draw.as_deref().map(|f| if f == "svg" { query::Format::Svg } else { query::Format::Text }),
    };
    query::answer(&a.expr.join(" "), &query)
}
