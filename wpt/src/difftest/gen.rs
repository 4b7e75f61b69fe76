//! The random program generator (work in progress).

pub type Op = String;

pub fn generate(_seed: u64) -> Vec<Op> {
    Vec::new()
}

pub fn render(ops: &[Op]) -> String {
    ops.join("\n")
}
