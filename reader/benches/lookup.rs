//! Lookups in process, every game (`reader lookup` end to end is the CLI's
//! benchmark).
//! Needs tables/yazy.dtab (`make bench` runs `make tables` first), and for
//! the target and two-player lookups the target tables and yazy-duel.dtab
//! (`make bench` builds them first).

use dice_tables_reader::rule_sheet::TurnStarts;
use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use dice_tables_reader::combo::Combo;
use dice_tables_reader::duel::{CardgamesDuel, SeedDuel};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame, State};
use dice_tables_reader::tenk::{Phase, Tenk};
use dice_tables_reader::yazy::{Mask, Yazy};
use dice_tables_reader::{Dice, Game, Yahtzee, Yatzy};

fn tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tables");
    assert!(dir.join("yazy.dtab").exists(), "run `make tables` first");
    dir
}

/// Deterministic numbers below `n` (xorshift).
fn random() -> impl FnMut(u64) -> u64 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    }
}

/// Random states, so lookups hit scattered cache lines as an app's would.
fn states() -> Vec<(Mask, Dice, u8)> {
    let mut next = random();
    (0..4096)
        .map(|_| {
            let mask = Mask::new(next(2048) as u32).unwrap();
            let faces: Vec<u8> = (0..5).map(|_| next(6) as u8 + 1).collect();
            (mask, Dice::from_faces(&faces).unwrap(), next(3) as u8)
        })
        .collect()
}

fn in_process(c: &mut Criterion) {
    let yazy = Yazy::open(tables().join("yazy.dtab")).unwrap();
    let states = states();
    let mut g = c.benchmark_group("yazy_lookup");
    let mut i = 0;
    g.bench_function("value_and_best_action", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (m, d, r) = black_box(states[i]);
            (yazy.value(m, d, r).unwrap(), yazy.best_action(m, d, r).unwrap())
        })
    });
    g.bench_function("value", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (m, d, r) = black_box(states[i]);
            yazy.value(m, d, r).unwrap()
        })
    });
    g.bench_function("turn_start_value", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            yazy.turn_start_value(black_box(states[i].0)).unwrap()
        })
    });
    // Opening checks the header and the small sections; chunks are decoded on first use.
    g.bench_function("open", |b| b.iter(|| Yazy::open(tables().join("yazy.dtab")).unwrap()));
    // What `reader verify` does: every chunk decoded, checksummed and checked.
    g.bench_function("open_and_check_every_chunk", |b| {
        b.iter(|| Yazy::check(dice_tables_reader::Table::open(tables().join("yazy.dtab")).unwrap()).unwrap())
    });
    g.finish();

    // threes: a state's chance, and every choice of a roll (five lookups).
    use dice_tables_reader::threes::{Situation, Threes};
    let threes = Threes::open(tables().join("threes.dtab")).unwrap();
    let situations: Vec<(Situation, Dice)> = states
        .iter()
        .enumerate()
        .map(|(i, &(_, d, _))| {
            let s = Situation { record: Some((i % 31) as u8), after: (i % 16) as u8, ..Situation::default() };
            (s, d)
        })
        .collect();
    let mut g = c.benchmark_group("threes_lookup");
    g.bench_function("chance", |b| {
        b.iter(|| {
            i = (i + 1) % situations.len();
            threes.chance(black_box(situations[i].0), 5).unwrap()
        })
    });
    g.bench_function("options_of_a_roll", |b| {
        b.iter(|| {
            i = (i + 1) % situations.len();
            let (s, d) = black_box(situations[i]);
            threes.options(s, d).unwrap().best().map(|o| o.keep.count)
        })
    });
    g.finish();

    // Every option of a decision, in each game's `Options` (no allocation).
    let combo = Combo::open(tables().join("combo.dtab")).unwrap();
    let tenk = Tenk::open(tables().join("tenk.dtab")).unwrap();
    let decisions = decisions();
    let mut g = c.benchmark_group("options");
    g.bench_function("yazy_options", |b| {
        b.iter(|| {
            i = (i + 1) % decisions.len();
            let (m, d, r, _) = black_box(decisions[i]);
            yazy.options(m, d, r).unwrap().len()
        })
    });
    g.bench_function("combo_options", |b| {
        b.iter(|| {
            i = (i + 1) % decisions.len();
            let (_, d, r, _) = black_box(decisions[i]);
            combo.options(d, r + 3).unwrap().len()
        })
    });
    g.bench_function("tenk_options", |b| {
        b.iter(|| {
            i = (i + 1) % decisions.len();
            let (_, _, _, t) = black_box(decisions[i]);
            tenk.options(t, 300, Phase::OnBoard).unwrap().len()
        })
    });
    g.finish();
}

/// Random decisions of yazy (an open category or more), combo and 10000
/// (a throw of 1 to 6 dice).
fn decisions() -> Vec<(Mask, Dice, u8, Dice)> {
    let mut next = random();
    (0..4096)
        .map(|_| {
            let mask = Mask::new(next(2047) as u32 + 1).unwrap();
            let faces: Vec<u8> = (0..5).map(|_| next(6) as u8 + 1).collect();
            let n = next(6) as usize + 1;
            let throw: Vec<u8> = (0..n).map(|_| next(6) as u8 + 1).collect();
            (mask, Dice::from_faces(&faces).unwrap(), next(3) as u8, Dice::from_faces(&throw).unwrap())
        })
        .collect()
}

/// Maxi Yatzy: every option of a random six-dice roll in a random
/// reachable state, ranked (one turn solve from the stored values of up to
/// twenty next masks, their chunks decoded once): the finnish table, and
/// the swedish one (`make bench` builds it) with random saved rerolls.
fn maxi_options(c: &mut Criterion) {
    use dice_tables_reader::maxi::{
        reachable_capped_totals, Maxi, MaxiPreset, MaxiYatzy, MaxiYatzySwedish, UPPER_MASK,
    };
    fn states<P: MaxiPreset>(table: &Maxi<P>) -> Vec<(dice_tables_reader::maxi::MaxiState, Dice, u8)> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let rules = table.rules();
        (0..512)
            .map(|_| loop {
                let mask = next((1 << 20) - 1) as u32 + 1;
                let reachable = reachable_capped_totals(!mask & UPPER_MASK, rules.bonus_at);
                let u = next(u64::from(rules.bonus_at) + 1) as u32;
                if reachable >> u & 1 == 0 {
                    continue;
                }
                let saved = next(rules.saved_counts(mask.count_ones() as usize) as u64) as u32;
                let faces: Vec<u8> = (0..6).map(|_| next(6) as u8 + 1).collect();
                let rerolls = next(rules.turn_rerolls(saved as usize) as u64 + 1) as u8;
                break (table.state(mask, u, saved).unwrap(), Dice::from_faces(&faces).unwrap(), rerolls);
            })
            .collect()
    }
    let mut g = c.benchmark_group("maxi_options");
    let finnish = MaxiYatzy::open(tables().join("maxi-yatzy.dtab")).unwrap();
    let cases = states(&finnish);
    let mut i = 0;
    g.bench_function("finnish", |b| {
        b.iter(|| {
            i = (i + 1) % cases.len();
            let (s, d, r) = black_box(cases[i]);
            finnish.options(s, d, r).unwrap().len()
        })
    });
    let swedish = MaxiYatzySwedish::open(tables().join("maxi-yatzy-swedish.dtab")).unwrap();
    let cases = states(&swedish);
    g.bench_function("swedish", |b| {
        b.iter(|| {
            i = (i + 1) % cases.len();
            let (s, d, r) = black_box(cases[i]);
            swedish.options(s, d, r).unwrap().len()
        })
    });
}

/// A rule set's table (the presets' tables `make tables` writes): every
/// option of a random roll with each number of rerolls left, in a random
/// sheet, worked out from the stored turn-start values (the chunks read
/// decoded beforehand).
fn rule_set_options(c: &mut Criterion) {
    let mut g = c.benchmark_group("rule_set_options");
    for name in ["yacht", "yahtzee-no-joker"] {
        let sheet = dice_tables_reader::rule_sheet::RuleSheet::open(tables().join(format!("{name}.dtab"))).unwrap();
        let mut next = random();
        let boxes = sheet.rules().boxes.len() as u64;
        let states: Vec<(u32, Dice)> = (0..256)
            .map(|_| {
                let mask = 1 + next((1 << boxes) - 1) as u32;
                let faces: Vec<u8> = (0..5).map(|_| 1 + next(6) as u8).collect();
                (mask, Dice::from_faces(&faces).unwrap())
            })
            .collect();
        for rerolls in [2u8, 0] {
            for &(mask, dice) in &states {
                sheet.options(mask, 0, 0, dice, rerolls).unwrap();
            }
            let mut i = 0;
            g.bench_function(format!("{name}_rerolls_{rerolls}"), |b| {
                b.iter(|| {
                    i = (i + 1) % states.len();
                    let (mask, dice) = black_box(states[i]);
                    sheet.options(mask, 0, 0, dice, rerolls).unwrap().options.len()
                })
            });
        }
    }
    g.finish();
}

/// yatzy and yahtzee: every option of a random roll in a random reachable
/// state, ranked (one turn solve from the stored turn-start values).
fn sheet_options(c: &mut Criterion) {
    let yatzy = Yatzy::open(tables().join("yatzy.dtab")).unwrap();
    let yahtzee = Yahtzee::open(tables().join("yahtzee.dtab")).unwrap();
    let mut g = c.benchmark_group("sheet_options");
    for rerolls in [2u8, 1, 0] {
        let states = sheet_states(&yatzy, 15, rerolls);
        let mut i = 0;
        g.bench_function(format!("yatzy_rerolls_{rerolls}"), |b| {
            b.iter(|| {
                i = (i + 1) % states.len();
                let (s, d, r) = black_box(states[i]);
                yatzy.options(s, d, r).unwrap().len()
            })
        });
        let states = sheet_states(&yahtzee, 13, rerolls);
        g.bench_function(format!("yahtzee_rerolls_{rerolls}"), |b| {
            b.iter(|| {
                i = (i + 1) % states.len();
                let (s, d, r) = black_box(states[i]);
                yahtzee.options(s, d, r).unwrap().len()
            })
        });
    }
    g.finish();
}

/// Random reachable states of a score-sheet game with a random roll, every
/// chunk they read decoded beforehand (as in a program that has been
/// answering for a while).
fn sheet_states<G: SheetGame>(t: &ScoreSheet<G>, categories: u32, rerolls: u8) -> Vec<(State, Dice, u8)> {
    let mut next = random();
    let states: Vec<(State, Dice, u8)> = (0..4096)
        .map(|_| {
            let mask = next((1 << categories) - 1) as u32 + 1;
            let upper: u32 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * next(6) as u32).sum();
            let flag = G::FLAGS == 2 && mask >> 11 & 1 == 0 && next(2) == 1;
            let faces: Vec<u8> = (0..5).map(|_| next(6) as u8 + 1).collect();
            (t.state(mask, upper, flag).unwrap(), Dice::from_faces(&faces).unwrap(), rerolls)
        })
        .collect();
    for &(s, d, r) in &states {
        t.options(s, d, r).unwrap();
    }
    states
}

/// The two-player 10000 tables: every keep of a random throw at a random
/// pair of totals and turn score (one turn solve from the stored chances),
/// the worst case (the longest turn: both on 0, six dice, nothing in the
/// turn), and a whole turn solved for a program playing games.
fn duel_options(c: &mut Criterion) {
    let seed = SeedDuel::open(tables().join("duel.dtab")).unwrap();
    let cardgames = CardgamesDuel::open(tables().join("duel-cardgames.dtab")).unwrap();
    let mut next = random();
    let states: Vec<(u32, u32, Dice, u32)> = (0..4096)
        .map(|_| {
            let n = next(6) as usize + 1;
            let faces: Vec<u8> = (0..n).map(|_| next(6) as u8 + 1).collect();
            let score = if n == 6 && next(2) == 0 { 0 } else { 50 * (1 + next(40) as u32) };
            (50 * next(200) as u32, 50 * next(200) as u32, Dice::from_faces(&faces).unwrap(), score)
        })
        .collect();
    let mut g = c.benchmark_group("duel_options");
    let mut i = 0;
    g.bench_function("seed_random_throw", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (me, opp, throw, score) = black_box(states[i]);
            seed.options(me, opp, throw, score).unwrap().len()
        })
    });
    g.bench_function("cardgames_random_throw", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let (me, opp, throw, score) = black_box(states[i]);
            cardgames.options(me, opp, throw, score).unwrap().len()
        })
    });
    let start: Dice = "123556".parse().unwrap();
    g.bench_function("seed_longest_turn", |b| {
        b.iter(|| seed.options(black_box(0), 0, black_box(start), 0).unwrap().len())
    });
    g.bench_function("seed_whole_turn", |b| b.iter(|| seed.turn(black_box(0), black_box(0)).unwrap().bust()));
    g.finish();
}

/// The target tables: every option of a random roll in a random reachable
/// state, played for a random target (one turn solve from the stored
/// chances of the next states), each chunk read once beforehand.
fn target_options(c: &mut Criterion) {
    use dice_tables_reader::sheet::SheetTarget;
    let mut g = c.benchmark_group("target_options");
    fn bench<G: SheetGame>(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, name: &str) {
        let target = SheetTarget::<G>::open(tables().join(format!("{}.dtab", G::TARGET_ID))).unwrap();
        let sheet = ScoreSheet::<G>::open(tables().join(format!("{}.dtab", G::ID))).unwrap();
        let mut next = random();
        for rerolls in [2u8, 0] {
            let cases: Vec<(State, Dice, u8, i64)> = sheet_states(&sheet, G::CATEGORIES.len() as u32, rerolls)
                .into_iter()
                .map(|(s, d, r)| (s, d, r, next(200) as i64 + 1))
                .collect();
            for &(s, d, r, n) in &cases {
                target.options(s, d, r, n).unwrap();
            }
            let mut i = 0;
            g.bench_function(format!("{name}_rerolls_{rerolls}"), |b| {
                b.iter(|| {
                    i = (i + 1) % cases.len();
                    let (s, d, r, n) = black_box(cases[i]);
                    target.options(s, d, r, n).unwrap().len()
                })
            });
        }
    }
    bench::<dice_tables_reader::sheet::YatzyGame>(&mut g, "yatzy");
    bench::<dice_tables_reader::sheet::YahtzeeGame>(&mut g, "yahtzee");
    g.finish();
}

/// The opponent-aware advisor against an opponent (the target tables):
/// a random roll in a random reachable state against a random reachable
/// opponent (as many categories open, or one fewer) and lead, every option
/// with its estimate: the opponent's distribution read, the turn solved
/// from the next states' chances. Each chunk read once beforehand (an app
/// asking again and again); a whole process reading them cold is in
/// crates/cli/benches/process.rs.
fn versus_options(c: &mut Criterion) {
    use dice_tables_reader::sheet::SheetTarget;
    let mut g = c.benchmark_group("versus_options");
    fn bench<G: SheetGame>(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, name: &str) {
        let target = SheetTarget::<G>::open(tables().join(format!("{}.dtab", G::TARGET_ID))).unwrap();
        let sheet = ScoreSheet::<G>::open(tables().join(format!("{}.dtab", G::ID))).unwrap();
        let categories = G::CATEGORIES.len() as u32;
        let mut next = random();
        let mine = sheet_states(&sheet, categories, 2);
        let theirs = sheet_states(&sheet, categories, 2);
        let mut cases = Vec::new();
        for &(s, d, r) in &mine {
            let open = s.mask().count_ones();
            // An opponent with as many open (moving second) or one fewer.
            let from = next(theirs.len() as u64) as usize;
            let Some(&(o, _, _)) = theirs[from..].iter().chain(&theirs[..from]).find(|t| {
                let k = t.0.mask().count_ones();
                k == open || k + 1 == open
            }) else {
                continue;
            };
            cases.push((s, d, r, o, next(120) as i64 - 60));
        }
        for &(s, d, r, o, lead) in &cases {
            target.versus_options(s, d, r, &target.opponent(o, lead).unwrap()).unwrap();
        }
        let mut i = 0;
        g.bench_function(format!("{name}_roll_options"), |b| {
            b.iter(|| {
                i = (i + 1) % cases.len();
                let (s, d, r, o, lead) = black_box(cases[i]);
                let opponent = target.opponent(o, lead).unwrap();
                target.versus_options(s, d, r, &opponent).unwrap().len()
            })
        });
        g.bench_function(format!("{name}_turn_start"), |b| {
            b.iter(|| {
                i = (i + 1) % cases.len();
                let (s, _, _, o, lead) = black_box(cases[i]);
                target.versus_chance(s, &target.opponent(o, lead).unwrap()).unwrap()
            })
        });
    }
    bench::<dice_tables_reader::sheet::YatzyGame>(&mut g, "yatzy");
    bench::<dice_tables_reader::sheet::YahtzeeGame>(&mut g, "yahtzee");
    g.finish();
}

/// Two-player yazy (`make bench` builds tables/yazy-duel.dtab first):
/// random reachable states, both turn orders, a turn's start and every
/// option of a random roll, each chunk read once beforehand (an app asking
/// again and again).
fn yazy_duel_options(c: &mut Criterion) {
    use dice_tables_reader::yazy::duel::{most, YazyDuel};
    let duel = YazyDuel::open(tables().join("yazy-duel.dtab")).unwrap();
    let mut next = random();
    let mut sheet = |size: u32| loop {
        let m = next(2048) as u16;
        if m.count_ones() == size {
            return m;
        }
    };
    let mut cases = Vec::new();
    for i in 0..512u32 {
        let size = 1 + i % 11;
        let mover = sheet(size);
        let opponent = sheet(if i % 2 == 0 { size } else { size - 1 });
        let lead = (i as i64 * 37) % (i64::from(most(mover)) + i64::from(most(opponent)) + 1) - i64::from(most(mover));
        let faces: Vec<u8> = (0..5).map(|k| ((i * 7 + k * 3) % 6) as u8 + 1).collect();
        let second = i % 2 == 1;
        cases.push((
            second,
            Mask::new(u32::from(mover)).unwrap(),
            Mask::new(u32::from(opponent)).unwrap(),
            lead,
            Dice::from_faces(&faces).unwrap(),
            (i % 3) as u8,
        ));
    }
    for &(_, m, o, d, dice, r) in &cases {
        duel.options(m, o, d, dice, r).unwrap();
    }
    let mut g = c.benchmark_group("yazy_duel");
    for (name, second) in [("first_player", false), ("second_player", true)] {
        let cases: Vec<_> = cases.iter().copied().filter(|c| c.0 == second).collect();
        let mut i = 0;
        g.bench_function(format!("{name}_turn_start"), |b| {
            b.iter(|| {
                i = (i + 1) % cases.len();
                let (_, m, o, d, _, _) = black_box(cases[i]);
                duel.chance(m, o, d).unwrap()
            })
        });
        g.bench_function(format!("{name}_roll_options"), |b| {
            b.iter(|| {
                i = (i + 1) % cases.len();
                let (_, m, o, d, dice, r) = black_box(cases[i]);
                duel.options(m, o, d, dice, r).unwrap().len()
            })
        });
    }
    g.finish();
}

/// Two players of each rule set (`make bench` builds the tables
/// `make rule-duel-tables` writes first): random states of both sheets,
/// both turn orders (a second player's turn start is stored; a first
/// player's is one turn solved from the stored ones), a turn's start and
/// every option of a random roll, each from a fresh lookup as an app's
/// would be.
fn rule_duel_options(c: &mut Criterion) {
    use dice_tables_reader::rule_sheet::RuleDuel;
    use dice_tables_reader::rules::SheetState;
    let mut g = c.benchmark_group("rule_duel");
    for game in ["forced-yatzy", "generala", "yacht", "crag"] {
        let path = tables().join(format!("{game}-duel.dtab"));
        let duel = RuleDuel::open(&path).unwrap_or_else(|e| panic!("{e}: run `make rule-duel-tables` first"));
        let sheets = duel.sheets();
        let boxes = sheets.by_size.len() - 1;
        let dice = usize::from(duel.rules().dice);
        let mut next = random();
        let mut cases = Vec::new();
        for i in 0..512usize {
            let size = 1 + i % boxes;
            let second = i % 2 == 1;
            let of = |size: usize, r: u64| {
                let s = &sheets.by_size[size][r as usize % sheets.by_size[size].len()];
                (SheetState { open: s.open, upper: u32::from(s.upper), held: s.held }, i64::from(s.most))
            };
            let (mover, most) = of(size, next(1 << 20));
            let (opponent, opp_most) = of(if second { size - 1 } else { size }, next(1 << 20));
            let lead = next((most + opp_most + 1) as u64) as i64 - most;
            let faces: Vec<u8> = (0..dice).map(|_| 1 + next(6) as u8).collect();
            let rerolls = (i as u8) % (duel.rules().rerolls + 1);
            cases.push((second, mover, opponent, lead, Dice::from_faces(&faces).unwrap(), rerolls));
        }
        let name = game.replace('-', "_");
        for (seat, second) in [("first_player", false), ("second_player", true)] {
            let cases: Vec<_> = cases.iter().copied().filter(|c| c.0 == second).collect();
            let mut i = 0;
            g.bench_function(format!("{name}_{seat}_turn_start"), |b| {
                b.iter(|| {
                    i = (i + 1) % cases.len();
                    let (_, m, o, d, _, _) = black_box(cases[i]);
                    duel.chance(m, o, d).unwrap()
                })
            });
            g.bench_function(format!("{name}_{seat}_roll_options"), |b| {
                b.iter(|| {
                    i = (i + 1) % cases.len();
                    let (_, m, o, d, dice, r) = black_box(cases[i]);
                    duel.options(m, o, d, dice, r).unwrap().options.len()
                })
            });
        }
    }
    g.finish();
}

criterion_group!(
    benches,
    in_process,
    sheet_options,
    rule_set_options,
    maxi_options,
    duel_options,
    target_options,
    versus_options,
    yazy_duel_options,
    rule_duel_options
);
criterion_main!(benches);
