//! The top README's "The crates" table is the one place the crate graph is written down. This
//! test reads its "depends on" column and compares every row with what Cargo knows:
//! `cargo metadata --format-version 1 --no-deps`, each workspace crate's normal (not dev, not
//! build) dependencies that are workspace crates themselves, optional ones included (boa_web's
//! features).
//!
//! How the column is read: names separated by commas, each the crate name without its `boa_`
//! prefix (`webidl`) or in full (`boa_web`); a parenthesised note after a name is ignored;
//! `–` means none; `all of the above` means every crate in the rows above. The crate column's
//! first code span is the crate name, its second the crate's directory. The table reads
//! top-down: a crate's dependencies are in rows above its own, and every library crate under
//! `crates/` has a row.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use boa_engine::{js_string, Context, JsValue, Source};

/// The header of the table this test checks (the first table in README.md with it).
const HEADER: &str = "| crate | standard | depends on | globals |";

/// One row of the table.
#[derive(Debug)]
struct Row {
    line: usize,
    krate: String,
    dir: Option<String>,
    depends_on: String,
}

/// What `cargo metadata` says of one workspace crate.
#[derive(Debug)]
struct Package {
    /// The crate's directory relative to the workspace root (`crates/web`).
    dir: String,
    /// Its normal dependencies that are workspace crates.
    deps: BTreeSet<String>,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The table's rows, from the first table under [`HEADER`] in `readme`.
fn table_rows(readme: &str) -> Vec<Row> {
    let mut lines = readme.lines().enumerate();
    let Some((_, header)) = lines.find(|(_, line)| line.trim() == HEADER) else {
        panic!("README.md has no table with the header `{HEADER}`");
    };
    let columns = cells(header);
    let column = |name: &str| {
        columns
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("the table has no column {name:?}"))
    };
    let (krate_col, deps_col) = (column("crate"), column("depends on"));
    lines
        .skip(1) // the | --- | separator
        .take_while(|(_, line)| line.trim_start().starts_with('|'))
        .map(|(index, line)| {
            let cells = cells(line);
            let spans = code_spans(&cells[krate_col]);
            Row {
                line: index + 1,
                krate: spans
                    .first()
                    .unwrap_or_else(|| panic!("README.md:{}: no `crate` name", index + 1))
                    .clone(),
                dir: spans.get(1).cloned(),
                depends_on: cells[deps_col].clone(),
            }
        })
        .collect()
}

/// A table line's cells, trimmed (no `|` inside a cell in this table).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_owned()).collect()
}

/// The contents of the cell's `code spans`, in order.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The crates a "depends on" cell names (`None` for "all of the above").
fn named_dependencies(cell: &str) -> Option<BTreeSet<String>> {
    // Drop parenthesised notes: "streams (native-future driver)" names `streams`.
    let mut text = String::new();
    let mut depth = 0usize;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let text = text.trim();
    if text == "all of the above" {
        return None;
    }
    if text == "–" || text == "-" || text.is_empty() {
        return Some(BTreeSet::new());
    }
    Some(
        text.split(',')
            .map(|name| {
                let name = name.trim().trim_matches('`');
                if name.starts_with("boa_") {
                    name.to_owned()
                } else {
                    format!("boa_{name}")
                }
            })
            .collect(),
    )
}

/// Every workspace crate with its directory and its normal dependencies among workspace crates.
fn cargo_metadata() -> BTreeMap<String, Package> {
    let root = workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json = String::from_utf8(output.stdout).expect("cargo metadata prints UTF-8");

    // The JSON is read by the engine this workspace is built on: one line per package,
    // "name<TAB>manifest path<TAB>dep,dep,..." (only normal dependencies on workspace crates).
    let mut context = Context::default();
    context
        .global_object()
        .set(
            js_string!("metadataText"),
            JsValue::from(js_string!(json.as_str())),
            false,
            &mut context,
        )
        .expect("set a global");
    let lines = context
        .eval(Source::from_bytes(
            r#"
            const metadata = JSON.parse(metadataText);
            const members = new Set(metadata.packages.map((p) => p.name));
            metadata.packages
                .map((p) => [
                    p.name,
                    p.manifest_path,
                    p.dependencies
                        .filter((d) => d.kind === null && members.has(d.name))
                        .map((d) => d.name)
                        .join(","),
                ].join("\t"))
                .join("\n")
            "#,
        ))
        .expect("read cargo metadata's JSON");
    let lines = lines.as_string().expect("a string").to_std_string_escaped();

    let root = root.canonicalize().expect("the workspace root exists");
    lines
        .lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let (name, manifest, deps) = (
                fields.next().unwrap_or_default(),
                fields.next().unwrap_or_default(),
                fields.next().unwrap_or_default(),
            );
            let manifest = Path::new(manifest);
            // Canonical, as the root is: the stock-engine check (scripts/test-stock-engine)
            // runs this in a workspace whose crates/ is a symlink to ours.
            let dir = manifest
                .parent()
                .and_then(|dir| dir.canonicalize().ok())
                .and_then(|dir| dir.strip_prefix(&root).ok().map(Path::to_path_buf))
                .map(|dir| dir.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let deps = deps
                .split(',')
                .filter(|d| !d.is_empty())
                .map(str::to_owned)
                .collect();
            (name.to_owned(), Package { dir, deps })
        })
        .collect()
}

/// `{a, b}` for a message.
fn list(set: &BTreeSet<String>) -> String {
    let names: Vec<&str> = set
        .iter()
        .map(|n| n.strip_prefix("boa_").unwrap_or(n))
        .collect();
    if names.is_empty() {
        "nothing".to_owned()
    } else {
        names.join(", ")
    }
}

/// Every way the table disagrees with `packages`, one message each.
fn table_errors(rows: &[Row], packages: &BTreeMap<String, Package>) -> Vec<String> {
    let mut errors = Vec::new();
    let mut above = BTreeSet::new();
    for row in rows {
        let at = format!("README.md:{} (row `{}`)", row.line, row.krate);
        let Some(package) = packages.get(&row.krate) else {
            // scripts/test-stock-engine's workspace leaves out the members that need the
            // engine patch series (the host); it says so in this variable.
            if std::env::var_os("BOA_STREAMS_STOCK_WORKSPACE").is_none() {
                errors.push(format!("{at}: no workspace crate is named `{}`", row.krate));
            }
            continue;
        };
        if let Some(dir) = &row.dir {
            if *dir != package.dir {
                errors.push(format!(
                    "{at}: the crate is in `{}`, not `{dir}`",
                    package.dir
                ));
            }
        }
        let named = named_dependencies(&row.depends_on).unwrap_or_else(|| above.clone());
        if named != package.deps {
            let missing: BTreeSet<String> = package.deps.difference(&named).cloned().collect();
            let extra: BTreeSet<String> = named.difference(&package.deps).cloned().collect();
            let mut why = Vec::new();
            if !missing.is_empty() {
                why.push(format!("add {}", list(&missing)));
            }
            if !extra.is_empty() {
                why.push(format!("remove {} (not in its Cargo.toml)", list(&extra)));
            }
            errors.push(format!(
                "{at}: \"depends on\" says \"{}\", Cargo.toml says {}: {}",
                row.depends_on,
                list(&package.deps),
                why.join("; ")
            ));
        }
        let below: BTreeSet<String> = package.deps.difference(&above).cloned().collect();
        if !below.is_empty() {
            errors.push(format!(
                "{at}: depends on {}, not in a row above it (the table reads top-down)",
                list(&below)
            ));
        }
        above.insert(row.krate.clone());
    }
    // Every library crate under crates/ has its row.
    for (name, package) in packages {
        if package.dir.starts_with("crates/") && !rows.iter().any(|r| r.krate == *name) {
            errors.push(format!(
                "README.md: the crates table has no row for `{name}` ({})",
                package.dir
            ));
        }
    }
    errors
}

#[test]
fn the_readme_dependency_table_matches_cargo_metadata() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md"))
        .expect("read the top README.md");
    let rows = table_rows(&readme);
    assert!(rows.len() > 10, "the crates table has {} rows", rows.len());
    let errors = table_errors(&rows, &cargo_metadata());
    assert!(
        errors.is_empty(),
        "the crates table in README.md disagrees with cargo metadata:\n{}",
        errors.join("\n")
    );
}

#[test]
fn the_checker_names_the_wrong_row() {
    let readme = format!(
        "{HEADER}\n| --- | --- | --- | --- |\n\
         | `boa_a` (`crates/a`) | A | – | – |\n\
         | `boa_b` (`crates/b`) | B | a (a note, with a comma) | – |\n\
         | `boa_c` (`crates/c`) | C | all of the above | – |\n"
    );
    let package = |dir: &str, deps: &[&str]| Package {
        dir: dir.to_owned(),
        deps: deps.iter().map(|d| (*d).to_owned()).collect(),
    };
    let mut packages = BTreeMap::from([
        ("boa_a".to_owned(), package("crates/a", &[])),
        ("boa_b".to_owned(), package("crates/b", &["boa_a"])),
        ("boa_c".to_owned(), package("crates/c", &["boa_a", "boa_b"])),
    ]);
    let rows = table_rows(&readme);
    assert_eq!(table_errors(&rows, &packages), Vec::<String>::new());

    packages.insert("boa_b".to_owned(), package("crates/b", &[]));
    packages.insert("boa_d".to_owned(), package("crates/d", &[]));
    assert_eq!(
        table_errors(&rows, &packages),
        [
            "README.md:4 (row `boa_b`): \"depends on\" says \"a (a note, with a comma)\", \
             Cargo.toml says nothing: remove a (not in its Cargo.toml)",
            "README.md: the crates table has no row for `boa_d` (crates/d)",
        ]
    );
}
