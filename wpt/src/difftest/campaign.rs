//! Campaign mode: generated programs, run in batches (one host per mode per worker, reused
//! for up to `HOST_REUSE` programs); a difference is confirmed in fresh hosts, shrunk, and
//! reported (and saved to pending/ with `--save-pending`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::run::{Log, Mode, Runner};
use crate::{compare, gen, shrink};

/// Seeds a worker takes at a time.
const BATCH: u64 = 20;
/// Programs one host runs before it is replaced.
const HOST_REUSE: usize = 60;
/// Predicate calls the shrinker may make per difference.
const SHRINK_BUDGET: usize = 300;

pub struct Config {
    pub oracle: Arc<str>,
    pub from: u64,
    pub seeds: u64,
    pub jobs: usize,
    pub modes: Vec<Mode>,
    pub save_pending: Option<PathBuf>,
    pub shrink: bool,
    pub without: gen::Without,
}

pub struct Summary {
    pub programs: u64,
    pub differing: usize,
}

#[derive(Default)]
struct Stats {
    programs: u64,
    time: [Duration; 3],
    runs: [u64; 3],
    found: Vec<Found>,
}

struct Found {
    seed: u64,
    mode: Mode,
    at: usize,
    line: String,
    report: String,
    program: String,
}

fn mode_index(m: Mode) -> usize {
    match m {
        Mode::Ref => 0,
        Mode::Ours => 1,
        Mode::OursSlow => 2,
    }
}

/// Runners for every mode, replaced after `HOST_REUSE` programs.
struct Hosts {
    oracle: Arc<str>,
    runners: Vec<Runner>,
    used: usize,
}

impl Hosts {
    fn new(oracle: &Arc<str>, modes: &[Mode]) -> Self {
        let mut all = vec![Mode::Ref];
        all.extend_from_slice(modes);
        Self {
            oracle: oracle.clone(),
            runners: all
                .into_iter()
                .map(|m| Runner::new(m, oracle.clone()))
                .collect(),
            used: 0,
        }
    }

    fn run(&mut self, program: &str, name: &str, stats: &mut Stats) -> Vec<(Mode, Log)> {
        if self.used >= HOST_REUSE {
            let modes: Vec<Mode> = self.runners.iter().map(Runner::mode).collect();
            self.runners = modes
                .into_iter()
                .map(|m| Runner::new(m, self.oracle.clone()))
                .collect();
            self.used = 0;
        }
        self.used += 1;
        self.runners
            .iter_mut()
            .map(|r| {
                let t = Instant::now();
                let log = r.run_batched(program, name, true);
                let i = mode_index(r.mode());
                stats.time[i] += t.elapsed();
                stats.runs[i] += 1;
                (r.mode(), log)
            })
            .collect()
    }

    /// Ref and one of our modes only (shrinking).
    fn run_pair(&mut self, program: &str, mode: Mode) -> Option<usize> {
        let mut logs = Vec::new();
        for r in self.runners.iter_mut() {
            if r.mode() == Mode::Ref || r.mode() == mode {
                logs.push(r.run_batched(program, "shrink.js", true));
            }
        }
        compare::first_difference(logs.first()?, logs.get(1)?)
    }
}

fn check_seed(seed: u64, config: &Config, hosts: &mut Hosts, stats: &mut Stats) {
    let ops = gen::generate_without(seed, config.without);
    let program = gen::render(&ops);
    let name = format!("gen-{seed}.js");
    let logs = hosts.run(&program, &name, stats);
    stats.programs += 1;
    let Some((_, ref_log)) = logs.first() else {
        return;
    };
    let differing: Vec<Mode> = logs[1..]
        .iter()
        .filter(|(_, l)| compare::first_difference(ref_log, l).is_some())
        .map(|(m, _)| *m)
        .collect();
    let Some(&mode) = differing.first() else {
        return;
    };
    if differing.len() + 1 != logs.len() {
        // Fast paths on and off disagree: a fast-path bug whatever the reference says.
        eprintln!(
            "difftest: seed {seed}: FAST-PATH SPLIT: only {} differs from ref",
            differing
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !config.shrink {
        let Some((_, ours_log)) = logs.iter().find(|(m, _)| *m == mode) else {
            return;
        };
        let at = compare::first_difference(ref_log, ours_log).unwrap_or(0);
        stats.found.push(Found {
            seed,
            mode,
            at,
            line: difference_line(ref_log, ours_log, at, mode),
            report: compare::render_difference(ref_log, ours_log, at, "ref", mode.name()),
            program,
        });
        return;
    }
    // Confirm in fresh hosts.
    let (fresh_ref, fresh_ours) =
        crate::run_program_fresh(&config.oracle, &[mode], &program, &name, true);
    let Some((_, fresh_log)) = fresh_ours.first() else {
        return;
    };
    if compare::first_difference(&fresh_ref, fresh_log).is_none() {
        eprintln!("difftest: seed {seed} differed in a batch but not in fresh hosts (ignored)");
        return;
    }
    // Shrink while the difference persists (batched hosts), then confirm fresh again.
    let shrunk = shrink::shrink(
        ops.clone(),
        |candidate| hosts.run_pair(&gen::render(candidate), mode).is_some(),
        gen::simplify,
        SHRINK_BUDGET,
    );
    let mut final_program = gen::render(&shrunk);
    let (mut r, mut o) =
        crate::run_program_fresh(&config.oracle, &[mode], &final_program, &name, true);
    if o.first()
        .is_none_or(|(_, l)| compare::first_difference(&r, l).is_none())
    {
        final_program = program;
        r = fresh_ref;
        o = fresh_ours;
    }
    let Some((_, ours_log)) = o.first() else {
        return;
    };
    let Some(at) = compare::first_difference(&r, ours_log) else {
        return;
    };
    let line = difference_line(&r, ours_log, at, mode);
    stats.found.push(Found {
        seed,
        mode,
        at,
        line,
        report: compare::render_difference(&r, ours_log, at, "ref", mode.name()),
        program: final_program,
    });
}

fn difference_line(r: &Log, o: &Log, at: usize, mode: Mode) -> String {
    let r = compare::normalise_ref(r);
    format!(
        "ref {:?} / {} {:?}",
        r.get(at).map_or("(end)", String::as_str),
        mode.name(),
        o.get(at).map_or("(end)", String::as_str)
    )
}

pub fn run(config: &Config) -> Summary {
    let start = Instant::now();
    let next = Arc::new(Mutex::new(config.from));
    let end = config.from.saturating_add(config.seeds);
    let total = Arc::new(Mutex::new(Stats::default()));
    let config = Arc::new(Config {
        oracle: config.oracle.clone(),
        from: config.from,
        seeds: config.seeds,
        jobs: config.jobs,
        modes: config.modes.clone(),
        save_pending: config.save_pending.clone(),
        shrink: config.shrink,
        without: config.without,
    });
    let done = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let handles: Vec<_> = (0..config.jobs)
        .map(|_| {
            let done = done.clone();
            let next = next.clone();
            let total = total.clone();
            let config = config.clone();
            std::thread::spawn(move || {
                let r = boa_streams_host::run_with_large_stack(move || {
                    let mut hosts = Hosts::new(&config.oracle, &config.modes);
                    let mut stats = Stats::default();
                    loop {
                        let from = {
                            let Ok(mut n) = next.lock() else { break };
                            let from = *n;
                            *n = (*n + BATCH).min(end);
                            from
                        };
                        if from >= end {
                            break;
                        }
                        for seed in from..(from + BATCH).min(end) {
                            check_seed(seed, &config, &mut hosts, &mut stats);
                        }
                        let n = done.fetch_add(
                            (from + BATCH).min(end) - from,
                            std::sync::atomic::Ordering::Relaxed,
                        ) + (from + BATCH).min(end)
                            - from;
                        if n % 500 < BATCH {
                            eprintln!(
                                "difftest campaign: {n}/{} programs ({:.0}s)",
                                end - config.from,
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    if let Ok(mut t) = total.lock() {
                        t.programs += stats.programs;
                        for i in 0..3 {
                            t.time[i] += stats.time[i];
                            t.runs[i] += stats.runs[i];
                        }
                        t.found.append(&mut stats.found);
                    }
                });
                if let Err(e) = r {
                    eprintln!("difftest: a campaign worker panicked: {e}");
                }
            })
        })
        .collect();
    for h in handles {
        let _ = h.join();
    }
    let mut stats = std::mem::take(&mut *total.lock().unwrap_or_else(|e| e.into_inner()));
    stats.found.sort_by_key(|f| f.seed);
    for f in stats.found.iter().filter(|_| config.shrink) {
        println!(
            "DIFFERENCE seed {} (ref vs {}): first differing line {}",
            f.seed,
            f.mode.name(),
            f.at
        );
        print!("{}", f.report);
        println!("  --- shrunk program (seed {})", f.seed);
        for line in f.program.lines() {
            println!("  | {line}");
        }
        if let Some(dir) = &config.save_pending {
            let path = dir.join(format!("gen-{}.js", f.seed));
            let text = format!(
                "// difftest campaign seed {} (ref vs {}), shrunk. First differing line {}:\n// {}\n{}",
                f.seed,
                f.mode.name(),
                f.at,
                f.line,
                f.program
            );
            match std::fs::write(&path, text) {
                Ok(()) => println!("  saved {}", path.display()),
                Err(e) => eprintln!("difftest: cannot write {}: {e}", path.display()),
            }
        }
    }
    for f in &stats.found {
        println!(
            "found seed {} (ref vs {}) line {}: {}",
            f.seed,
            f.mode.name(),
            f.at,
            f.line
        );
    }
    let wall = start.elapsed().as_secs_f64();
    let per = |i: usize| {
        let t = stats.time[i].as_secs_f64();
        if t > 0.0 {
            stats.runs[i] as f64 / t
        } else {
            0.0
        }
    };
    println!(
        "difftest campaign: seeds {}..{}: {} programs, {} with differences; {:.1}s wall, {:.1} programs/s; per mode (runs/s of one thread): ref {:.1}, ours {:.1}, ours-slow {:.1}",
        config.from,
        end,
        stats.programs,
        stats.found.len(),
        wall,
        stats.programs as f64 / wall.max(1e-9),
        per(0),
        per(1),
        per(2)
    );
    Summary {
        programs: stats.programs,
        differing: stats.found.len(),
    }
}
