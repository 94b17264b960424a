//! Each game's lookup with its arguments parsed: what a [`Query`](crate::Query) holds.

use dice_tables_reader::sheet::Joker;
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Mask;
use dice_tables_reader::Dice;

/// A yazy lookup: the turn-start value of a mask, or a roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YazyQuery {
    /// The open categories.
    pub mask: Mask,
    /// The five dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left (default: all of the table's); only with `dice`.
    pub rerolls: Option<u8>,
    /// Play to score at least this many more points (the `yazy-target`
    /// table): the answer is the best chance of it, `"p"`, not the expected score.
    pub need: Option<i64>,
    /// Play against an opponent with these categories open (the
    /// `yazy-duel` table): the answer is the chance of winning, ties half,
    /// `"p"`. Needs `me` and `opp`.
    pub opp_mask: Option<Mask>,
    /// The total so far of the player to move, in a two-player lookup;
    /// only `me - opp` matters.
    pub me: Option<u32>,
    /// The opponent's total so far, in a two-player lookup.
    pub opp: Option<u32>,
    /// In a two-player lookup, the opponent-aware advisor's answer (the
    /// `yazy-target` table: an estimate) instead of the two-player table's
    /// (exact).
    pub advisor: bool,
    /// In a two-player lookup, who plays the turn asked about (`None`: the
    /// sheets say, and you when both are as far along: see
    /// [`YazyQuery::player_to_move`]). The answer is always your chance.
    pub to_move: Option<ToMove>,
}

/// Who plays the turn a two-player lookup asks about. The chance answered
/// is always yours (`--me`'s): while the opponent plays, the dice and
/// options are theirs, ranked by their best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// You: the options are yours.
    Me,
    /// The opponent.
    Opponent,
}

impl ToMove {
    /// Who plays the turn a two-player lookup asks about, your sheet with
    /// `mine` boxes open and the opponent's `theirs`: as `asked`, else the
    /// opponent when your sheet has one fewer open (you moved first and
    /// have played), else you.
    pub fn of(asked: Option<ToMove>, mine: u32, theirs: u32) -> ToMove {
        match asked {
            Some(who) => who,
            None if mine + 1 == theirs => ToMove::Opponent,
            None => ToMove::Me,
        }
    }

    /// The name the arguments and the JSON give it: `me` or `opp`.
    pub fn name(self) -> &'static str {
        match self {
            ToMove::Me => "me",
            ToMove::Opponent => "opp",
        }
    }
}

impl YazyQuery {
    /// Your lead in a two-player lookup: `me - opp` (0 when they are left out).
    pub fn lead(&self) -> i64 {
        i64::from(self.me.unwrap_or(0)) - i64::from(self.opp.unwrap_or(0))
    }

    /// Who plays the turn asked about: as asked, else the opponent when your
    /// sheet has one category fewer open (you moved first and have played),
    /// else you.
    pub fn player_to_move(&self) -> ToMove {
        let theirs = self.opp_mask.map_or(0, |opp| opp.bits().count_ones());
        ToMove::of(self.to_move, self.mask.bits().count_ones(), theirs)
    }
}

/// A combo lookup: the game-start value, or a roll's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComboQuery {
    /// The five dice showing; `None` for the value before the first roll.
    pub dice: Option<Dice>,
    /// Rerolls left (default: all of the table's); only with `dice`.
    pub rerolls: Option<u8>,
}

/// A threes lookup: a state's chance of success (or expected total), or a
/// throw's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreesQuery {
    /// The 1-5 dice just thrown; one of `dice` and `remaining` is given.
    pub dice: Option<Dice>,
    /// Dice still to throw, 0 to 5.
    pub remaining: Option<u8>,
    /// Points kept so far.
    pub points: u8,
    /// The lowest total of the players before (`None`: the first player).
    pub record: Option<u8>,
    /// Players still to play after this one (default 0).
    pub after: Option<u8>,
    /// How ties count (default: win).
    pub ties: Option<Ties>,
    /// How the later players play (default: sequential).
    pub model: Option<Model>,
    /// Minimise the expected total instead of maximising the chance of success.
    pub expected: bool,
}

/// A 10000 lookup: before a throw, or a throw's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TenkQuery {
    /// The 1-6 dice just thrown; one of `dice` and `remaining` is given.
    pub dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    pub remaining: Option<u8>,
    /// The turn score so far.
    pub score: u32,
    /// Not yet on the board: the chance of reaching 1000 this turn.
    pub opening: bool,
}

/// A yatzy or yahtzee lookup: a state's turn-start value, or a roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SheetQuery {
    /// Open categories, bit i for category i.
    pub mask: u32,
    /// Points in ones to sixes so far; `None` is 0, which is the only
    /// total while they are all open (see [`SheetQuery::upper_total`]).
    pub upper: Option<u32>,
    /// Yahtzee only: the yahtzee box holds 50.
    pub yahtzee_bonus: bool,
    /// The five dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left (default 2); only with `dice`.
    pub rerolls: Option<u8>,
    /// Play to score at least this many more points (the `yatzy-target` or
    /// `yahtzee-target` table): the answer is the best chance of it, `"p"`.
    pub need: Option<i64>,
    /// Yahtzee only: the joker reading, which picks the table (`None`:
    /// forced, `yahtzee.dtab`; free: `yahtzee-free.dtab`).
    pub joker: Option<Joker>,
    /// Play against an opponent whose sheet has these categories open: the
    /// answer is the opponent-aware advisor's estimate of the chance of
    /// winning, ties half, `"p"` (the target table). Needs `me` and `opp`.
    pub opp_mask: Option<u32>,
    /// The opponent's points in ones to sixes so far (as `upper`).
    pub opp_upper: Option<u32>,
    /// Yahtzee only: the opponent's yahtzee box holds 50.
    pub opp_yahtzee_bonus: bool,
    /// Your total so far (Yahtzee bonuses included, the upper bonus not:
    /// it counts at the game's end), in a two-player lookup; only `me -
    /// opp` matters.
    pub me: Option<u32>,
    /// The opponent's total so far, counted as `me`.
    pub opp: Option<u32>,
}

impl SheetQuery {
    /// The upper total asked (0 when left out: [`Query::check`](crate::Query::check) refuses to
    /// leave it out once an upper box is filled).
    pub fn upper_total(&self) -> u32 {
        self.upper.unwrap_or(0)
    }

    /// The opponent's upper total asked (0 when left out, as `upper`).
    pub fn opp_upper_total(&self) -> u32 {
        self.opp_upper.unwrap_or(0)
    }

    /// Whether the answer is a chance from the target table: played for a
    /// need, or against an opponent.
    pub fn played_to_win(&self) -> bool {
        self.need.is_some() || self.opp_mask.is_some()
    }

    /// Your lead: `me - opp` (0 when they are left out).
    pub fn lead(&self) -> i64 {
        i64::from(self.me.unwrap_or(0)) - i64::from(self.opp.unwrap_or(0))
    }
}

/// The rules preset of a Maxi Yatzy lookup: which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxiRules {
    /// Bonus 50 at 75, no saved rolls: `maxi-yatzy.dtab`.
    Finnish,
    /// Bonus 100 at 84, unused rerolls saved: `maxi-yatzy-swedish.dtab`.
    Swedish,
}

/// A Maxi Yatzy lookup: a state's turn-start value, or a six-dice roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxiQuery {
    /// Open boxes, bit i for box i.
    pub mask: u32,
    /// Points in ones to sixes so far; `None` is 0 (needed once an upper box is filled).
    pub upper: Option<u32>,
    /// Rerolls saved from earlier turns (swedish rules); `None` is 0.
    pub saved: Option<u32>,
    /// The six dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left in this turn, its two and any saved (default: all of them); only with `dice`.
    pub rerolls: Option<u8>,
    /// Which table.
    pub rules: MaxiRules,
}

/// The rules preset of a two-player 10000 lookup: which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelRules {
    /// The seed's scoring, entry 1000: `duel.dtab`.
    Seed,
    /// The cardgames scoring, no entry: `duel-cardgames.dtab`.
    Cardgames,
}

/// A two-player 10000 lookup: the chance of winning at a turn's start,
/// before a throw, or of a throw's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelQuery {
    /// Your banked total.
    pub me: u32,
    /// The opponent's banked total.
    pub opp: u32,
    /// Who plays the turn asked about (the dice, the turn score and the
    /// options are theirs); the chance answered is yours.
    pub to_move: ToMove,
    /// The 1-6 dice just thrown; at most one of `dice` and `remaining`.
    pub dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    pub remaining: Option<u8>,
    /// The turn score so far.
    pub score: u32,
    /// Which table.
    pub rules: DuelRules,
}

/// One game's lookup, its arguments parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// yazy.
    Yazy(YazyQuery),
    /// combo.
    Combo(ComboQuery),
    /// threes.
    Threes(ThreesQuery),
    /// 10000.
    Tenk(TenkQuery),
    /// yatzy.
    Yatzy(SheetQuery),
    /// yahtzee.
    Yahtzee(SheetQuery),
    /// two-player 10000.
    Duel(DuelQuery),
    /// Maxi Yatzy.
    Maxi(MaxiQuery),
    /// one-die (the feature `example-game`'s test game).
    #[cfg(feature = "example-game")]
    OneDie(OneDieQuery),
    /// Any rule set's table, by the rule set's name.
    #[cfg(not(feature = "solitaire-only"))]
    RuleSet(RuleSetQuery),
}

/// A lookup in any rule set's table: the arguments as given, read against
/// the boxes the table's rules name when it is answered.
#[cfg(not(feature = "solitaire-only"))]
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSetQuery {
    /// The rule set's name: its table is `<table>.dtab`.
    pub table: String,
    /// The open boxes, as given (`None`: all open).
    pub mask: Option<String>,
    /// The upper total so far (`None`: 0).
    pub upper: Option<u32>,
    /// The filled boxes holding points whose points matter later, as given.
    pub held: Option<String>,
    /// Rerolls saved from earlier turns, where the rules save them (`None`: 0).
    pub saved: Option<u32>,
    /// The dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left (default: all the rules give and every one saved); only with `dice`.
    pub rerolls: Option<u8>,
    /// Play to score at least this many more points (the rule set's target
    /// table, `<table>-target.dtab`): the answer is the best chance of it, `"p"`.
    pub need: Option<i64>,
    /// Play against an opponent whose sheet has these boxes open, as given:
    /// the answer is the opponent-aware advisor's estimate of the chance of
    /// winning, ties half, `"p"` (the target table). Needs `me` and `opp`.
    pub opp_mask: Option<String>,
    /// The opponent's upper total so far (`None`: 0).
    pub opp_upper: Option<u32>,
    /// The opponent's filled boxes holding points, as given (as `held`).
    pub opp_held: Option<String>,
    /// Your total so far (the upper bonus left out), against an opponent;
    /// only `me - opp` matters.
    pub me: Option<u32>,
    /// The opponent's total so far, counted as `me`.
    pub opp: Option<u32>,
    /// Against an opponent, who plays the turn asked about (`None`: the
    /// sheets say, as [`ToMove::of`]); only from the two-player table.
    /// The answer is always your chance.
    pub to_move: Option<ToMove>,
}

#[cfg(not(feature = "solitaire-only"))]
impl RuleSetQuery {
    /// Whether the answer is a chance from the target table: played for a
    /// need, or against an opponent.
    pub fn played_to_win(&self) -> bool {
        self.need.is_some() || self.opp_mask.is_some()
    }
}

/// A one-die lookup: the value before the roll, or a face's.
#[cfg(feature = "example-game")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneDieQuery {
    /// The face showing; `None` for the value before the roll.
    pub face: Option<dice_tables_reader::one_die::Face>,
    /// Rerolls left (default: all of the table's).
    pub rerolls: Option<u8>,
}
