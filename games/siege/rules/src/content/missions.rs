//! Mission records (core MSN-1, missions.md) and their file format.

use super::board::build_board;
use super::error::ContentError;
use super::ids::{CreatureKind, Edition};
use super::layout::Layout;
use super::tiles::{parse_edge_term, parse_num, split_tokens, TileDef};
use citadel_grid::{Board, Edge, Side, Square, StepMap, Walls};
use serde::{Deserialize, Serialize};

/// How a mission names an entrance (MAP-16, MAP-21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntranceRef {
    /// `<tileId><side>`, e.g. `15N`.
    TileSide {
        /// Tile id.
        tile: u32,
        /// Side of the placed tile.
        side: Side,
    },
    /// Explicit squares (classic `SQ(x,y) ...`).
    Squares(Vec<Square>),
    /// The classic Citadel gates.
    Citadel,
}

/// An entrance resolved on a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrance {
    /// Id as written, e.g. `15N`.
    pub id: String,
    /// Entry squares, sorted by `(y,x)`.
    pub squares: Vec<Square>,
    /// For each entry square, the off-board square just outside its boundary
    /// edge (MOV-14 exits step there). Empty for Citadel gates.
    pub outside: Vec<(Square, Square)>,
}

/// How the DTs start (MOV-12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StartMode {
    /// In the holding area of a chosen white entrance.
    Entrance,
    /// Placed on the given tile id at their first turn.
    Tile(u32),
}

/// A printed feature or token kind named by missions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// Desk (a GRID `d` feature, not a token; walkable).
    Desk,
    /// Debris (blocking, cover).
    Debris,
    /// Terminal (blocking, cover, attackable, hackable).
    Terminal,
    /// Defense turret.
    Turret,
    /// Equipment container.
    Container,
    /// Dark portal.
    Portal,
    /// Primary target / objective marker.
    Objective,
}

impl TokenKind {
    /// Every kind with its file spelling.
    pub const ALL: [(TokenKind, &'static str); 7] = [
        (TokenKind::Desk, "desk"),
        (TokenKind::Debris, "debris"),
        (TokenKind::Terminal, "terminal"),
        (TokenKind::Turret, "turret"),
        (TokenKind::Container, "container"),
        (TokenKind::Portal, "portal"),
        (TokenKind::Objective, "objective"),
    ];

    /// The kind spelled `s` in a mission file.
    pub fn parse(s: &str) -> Option<TokenKind> {
        Self::ALL.iter().find(|(_, n)| *n == s).map(|(k, _)| *k)
    }

    /// Impassable per the BRD-4 table. Desks are printed furniture (BRD-5)
    /// and so walkable; every token kind named here is a solid object.
    pub fn blocking(self) -> bool {
        self != TokenKind::Desk
    }
}

/// A feature or token at a square, optionally named (`Throne`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenPlacement {
    /// Kind.
    pub kind: TokenKind,
    /// Global square.
    pub square: Square,
    /// Optional name (e.g. `throne`, `relay`).
    pub name: Option<String>,
    /// Classic terrain targets: the token's own defense value (the AF of
    /// missions.md, core ATK-16), overriding the band row. Set together
    /// with `pp`, on named tokens only (`DV=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dv: Option<u8>,
    /// PP for destroying the token (`PP=`), with `dv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pp: Option<u8>,
}

/// A Dark Legion figure the mission places at setup (`FIGURE`; classic
/// bosses and tagged figures, missions.md classic note 1). It is taken
/// from the DL pool and is a normal DL figure carrying its tag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigurePlacement {
    /// Creature kind.
    pub kind: CreatureKind,
    /// Global square.
    pub square: Square,
    /// Mission tag, for MSN-2 `eliminated(tag)` (`boss`, `hunter`).
    pub tag: String,
    /// Actions per activation instead of the creature table's (Alakhai: 4).
    pub actions: Option<u8>,
}

/// A mission Special action (MSN-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SpecialActionDef {
    /// Id used in goals, e.g. `photograph`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The DT must be adjacent (ADJ-4) to a feature/token of this kind.
    pub adjacent_to: TokenKind,
    /// Each feature counts once (e.g. relays); otherwise any repeat counts.
    pub once_per_feature: bool,
}

/// A mission's special action: an index into
/// [`MissionDef::special_actions`], valid for the mission that issued it
/// ([`MissionDef::special`]). Commands, events, goals and views name the
/// action by its string id (`photograph`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SpecialId(u16);

/// Goal predicates (MSN-2), combinable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Both hold.
    And(Vec<Goal>),
    /// Either holds.
    Or(Vec<Goal>),
    /// `special_done(S, k)`.
    SpecialDone {
        /// Special action id.
        action: String,
        /// Times.
        times: u32,
    },
    /// `exited(n, exits)`; `n = 0` means "one per corporation player".
    Exited {
        /// How many DTs.
        count: u32,
        /// Exit ids.
        exits: Vec<String>,
    },
    /// `carried_out(token, exits)`.
    CarriedOut {
        /// Token name.
        token: String,
        /// Exit ids.
        exits: Vec<String>,
    },
    /// `eliminated(tag)`.
    Eliminated(String),
    /// `destroyed(tokens)`.
    Destroyed(Vec<String>),
    /// `hacked(tokens)`.
    Hacked(Vec<String>),
    /// `pp_earned(n)`.
    PpEarned(u32),
    /// `all_dl_eliminated`.
    AllDlEliminated,
    /// `alive(n)`.
    Alive(u32),
    /// `then(first, next)`: `first` held at some moment, and `next` holds
    /// counting only what happened from that moment on (classic M1:
    /// `then(pp_earned(20), exited(1, [1W, 4W]))` counts only exits made
    /// after the 20 PP were reached).
    Then {
        /// The condition reached first (latched once it holds).
        first: Box<Goal>,
        /// The condition counted from then on.
        next: Box<Goal>,
    },
}

/// Rewards (MSN-6, CMD-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rewards {
    /// PP to each eligible corporation player on success.
    pub success: i32,
    /// PP to the DL on failure.
    pub failure: i32,
    /// Commander penalty on primary failure (negative).
    pub commander: i32,
    /// Classic credit rewards (CEC-2), `REWARDS credits=<dt> dl_credits=<dl>`;
    /// the PP fields are then 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credits: Option<CreditRewards>,
}

/// Classic mission rewards in credits (classic CEC-2; missions.md "Reward
/// DT c / DL c").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreditRewards {
    /// Credits to each team assigned the primary mission on success.
    pub dt: u8,
    /// Credits to the DL player on failure.
    pub dl: u8,
}

/// A mission record (MSN-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionDef {
    /// Id, e.g. `ce-c1m1`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Edition.
    pub edition: Edition,
    /// Layout.
    pub layout: Layout,
    /// Classic Citadel point.
    pub citadel: Option<Square>,
    /// Rounds R (EVT-1); 0 = no time limit (the classic training mission).
    pub rounds: u32,
    /// Event card numbers in play.
    pub events: Vec<u32>,
    /// Force card numbers in play.
    pub force_cards: Vec<u32>,
    /// Red (DL) entrances.
    pub red: Vec<(String, EntranceRef)>,
    /// White (DT) entrances.
    pub white: Vec<(String, EntranceRef)>,
    /// Exits.
    pub exits: Vec<(String, EntranceRef)>,
    /// Start mode.
    pub start: StartMode,
    /// Features and tokens.
    pub tokens: Vec<TokenPlacement>,
    /// DL figures placed at setup (`FIGURE`), in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<FigurePlacement>,
    /// DL pool overrides (`POOL`): of each listed creature, this many
    /// remain in the pool besides the mission's `FIGURE` figures of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pool: Vec<(CreatureKind, u8)>,
    /// Door groups, each a list of global unit edges.
    pub doors: Vec<Vec<Edge>>,
    /// Special actions.
    pub special_actions: Vec<SpecialActionDef>,
    /// Primary goal.
    pub goal: Goal,
    /// `ends_early`.
    pub ends_early: bool,
    /// Rewards.
    pub rewards: Rewards,
    /// Secondary missions used.
    pub secondary: bool,
    /// Mission-specific rule keys (`RULE` lines, e.g. `special_deal_34`),
    /// implemented by the game; the loader only carries them.
    pub special_rules: Vec<String>,
    /// Line of the `MISSION` header in its file.
    pub line: usize,
}

impl MissionDef {
    /// No time limit: the mission ends only by its goal or when no DT is
    /// left (`ROUNDS 0`, the classic training mission).
    pub fn unlimited_rounds(&self) -> bool {
        self.rounds == 0
    }

    /// The DL pool size of `kind` in this mission (core DL-1): the
    /// table's `table_pool`, or with a `POOL` override that many plus the
    /// mission's `FIGURE` figures of the kind (which come from the pool).
    pub fn pool_size(&self, kind: CreatureKind, table_pool: u8) -> u8 {
        match self.pool.iter().find(|(k, _)| *k == kind) {
            Some(&(_, n)) => n.saturating_add(
                u8::try_from(self.figures.iter().filter(|f| f.kind == kind).count())
                    .unwrap_or(u8::MAX),
            ),
            None => table_pool,
        }
    }

    /// The `FIGURE` placement carrying `tag`.
    pub fn figure_with_tag(&self, tag: &str) -> Option<&FigurePlacement> {
        self.figures.iter().find(|f| f.tag == tag)
    }

    /// Does the record list this `RULE` key?
    pub fn has_rule(&self, key: &str) -> bool {
        self.special_rules.iter().any(|r| r == key)
    }

    /// The special action with this string id.
    pub fn special(&self, id: &str) -> Option<SpecialId> {
        let i = self.special_actions.iter().position(|s| s.id == id)?;
        u16::try_from(i).ok().map(SpecialId)
    }

    /// The definition of a special action of this mission.
    ///
    /// # Panics
    /// If `id` came from another mission with more special actions.
    pub fn special_def(&self, id: SpecialId) -> &SpecialActionDef {
        &self.special_actions[usize::from(id.0)]
    }

    /// Resolve an entrance on the mission's board (MAP-16, MAP-21);
    /// `citadel` is the mission's Citadel point, which `CITADEL` entrances
    /// need.
    ///
    /// # Errors
    /// A message if the entrance is not on an open board edge.
    pub fn resolve_entrance(
        board: &Board,
        citadel: Option<Square>,
        id: &str,
        entrance: &EntranceRef,
    ) -> Result<Entrance, String> {
        let mut squares = Vec::new();
        let mut outside = Vec::new();
        match entrance {
            EntranceRef::TileSide { tile, side } => {
                let t = board
                    .tile_index(*tile)
                    .map(|i| &board.tiles[i])
                    .ok_or_else(|| format!("entrance {id}: tile {tile} is not placed"))?;
                let o = t.origin;
                // The two middle squares of the side (local 3 and 4).
                let pair = match side {
                    Side::N => [o.offset(3, 0), o.offset(4, 0)],
                    Side::S => [o.offset(3, 7), o.offset(4, 7)],
                    Side::W => [o.offset(0, 3), o.offset(0, 4)],
                    Side::E => [o.offset(7, 3), o.offset(7, 4)],
                };
                for sq in pair {
                    check_boundary(board, id, sq, *side)?;
                    squares.push(sq);
                    outside.push((sq, side.step(sq)));
                }
            }
            EntranceRef::Squares(list) => {
                if list.is_empty() {
                    return Err(format!("entrance {id}: no squares"));
                }
                for &sq in list {
                    // The boundary side is the first (N, E, S, W) whose
                    // neighbour is off-board and whose edge is open.
                    let side = Side::ALL
                        .into_iter()
                        .find(|&sd| check_boundary(board, id, sq, sd).is_ok())
                        .ok_or_else(|| {
                            format!("entrance {id}: {sq} is not on an open board edge (MAP-16)")
                        })?;
                    squares.push(sq);
                    outside.push((sq, side.step(sq)));
                }
            }
            EntranceRef::Citadel => {
                let c = citadel
                    .ok_or_else(|| format!("entrance {id}: the mission has no CITADEL point"))?;
                for sq in citadel_gate_squares(c) {
                    if !board.on_board(sq) {
                        continue; // MAP-21: off-board gate squares are ignored.
                    }
                    if !board.passable(sq) {
                        return Err(format!("entrance {id}: gate square {sq} is impassable"));
                    }
                    squares.push(sq);
                }
                if squares.is_empty() {
                    return Err(format!("entrance {id}: no Citadel gate square is on-board"));
                }
            }
        }
        squares.sort();
        squares.dedup();
        outside.sort();
        outside.dedup();
        Ok(Entrance {
            id: id.to_string(),
            squares,
            outside,
        })
    }

    /// Build this mission's board from the edition's tiles (MAP-11..13, MAP-8).
    ///
    /// # Errors
    /// As [`build_board`].
    pub fn board(&self, tiles: &[TileDef]) -> Result<Board, String> {
        build_board(&self.layout, tiles, self.citadel)
            .map_err(|m| format!("mission {}: {m}", self.id))
    }

    /// Every entrance and exit resolved, white first, then red, then exits.
    ///
    /// # Errors
    /// The first entrance that is not valid (MAP-16).
    pub fn entrances(&self, board: &Board) -> Result<Vec<Entrance>, String> {
        self.white
            .iter()
            .chain(&self.red)
            .chain(&self.exits)
            .map(|(id, e)| Self::resolve_entrance(board, self.citadel, id, e))
            .collect()
    }

    /// The full loader check (MAP-T3, MSN-T1): the board builds (MAP-8),
    /// every entrance is valid (MAP-16), tokens sit on passable squares, the
    /// doors are valid groups (MSN-1), and every passable square without a
    /// blocking token is reachable from every other one with doors open
    /// (MAP-17). Returns the board.
    ///
    /// # Errors
    /// The first problem, naming the mission.
    pub fn validate(&self, tiles: &[TileDef]) -> Result<Board, String> {
        let board = self.board(tiles)?;
        let err = |m: String| format!("mission {}: {m}", self.id);
        self.entrances(&board).map_err(err)?;
        if let StartMode::Tile(t) = self.start {
            if board.tile_index(t).is_none() {
                return Err(err(format!("start tile {t} is not placed")));
            }
        }
        for (i, t) in self.tokens.iter().enumerate() {
            if !board.passable(t.square) {
                return Err(err(format!(
                    "token at {} is not on a passable square",
                    t.square
                )));
            }
            if t.kind == TokenKind::Desk && board.cell(t.square).map(|c| c.glyph) != Some('d') {
                return Err(err(format!(
                    "desk at {} is not a GRID `d` square",
                    t.square
                )));
            }
            if self.tokens[..i].iter().any(|o| o.square == t.square) {
                return Err(err(format!("two tokens on {} (BRD-4)", t.square)));
            }
        }
        for (i, f) in self.figures.iter().enumerate() {
            if !board.passable(f.square) {
                return Err(err(format!(
                    "FIGURE {} at {} is not on a passable square",
                    f.tag, f.square
                )));
            }
            let on_token = self
                .tokens
                .iter()
                .any(|t| t.square == f.square && t.kind.blocking());
            if on_token || self.figures[..i].iter().any(|o| o.square == f.square) {
                return Err(err(format!(
                    "FIGURE {} at {} shares its square",
                    f.tag, f.square
                )));
            }
        }
        for group in &self.doors {
            check_door_group(&board, group).map_err(err)?;
        }
        // MAP-17: doors open (a fresh overlay has none closed), blocking
        // tokens impassable.
        let walls = Walls::new(&board);
        let blocked = |s: Square| {
            self.tokens
                .iter()
                .any(|t| t.square == s && t.kind.blocking())
        };
        let open: Vec<Square> = board
            .squares()
            .filter(|s| board.passable(*s) && !blocked(*s))
            .collect();
        if let Some(&first) = open.first() {
            let dist = StepMap::new(&board, &walls, &[first], blocked, false);
            if let Some(s) = open.iter().find(|s| !dist.reaches(**s)) {
                return Err(err(format!(
                    "square {s} cannot be reached from {first} (MAP-17)"
                )));
            }
        }
        Ok(board)
    }
}

/// MAP-16 checks for one entry square whose boundary lies on `side`.
fn check_boundary(board: &Board, id: &str, sq: Square, side: Side) -> Result<(), String> {
    if !board.on_board(sq) || !board.passable(sq) {
        return Err(format!(
            "entrance {id}: {sq} is not an on-board passable square"
        ));
    }
    let out = side.step(sq);
    if board.on_board(out) {
        return Err(format!(
            "entrance {id}: {out} beyond {sq} is on-board, so this is not a board edge"
        ));
    }
    let edge = Edge::side_of(sq, side);
    if board.is_wall(edge) {
        return Err(format!(
            "entrance {id}: boundary edge {edge} is a tile wall"
        ));
    }
    Ok(())
}

/// The 16 squares flanking the four Citadel gates (MAP-20, MAP-21): for each
/// arm, the gate edges at distance 4 and 5 and the square on each side.
fn citadel_gate_squares(c: Square) -> Vec<Square> {
    let (cx, cy) = (c.x, c.y);
    let mut out = Vec::with_capacity(16);
    for d in [4, 5] {
        // North arm: V,cx,cy-d separates (cx-1,cy-d) and (cx,cy-d).
        out.push(Square::new(cx - 1, cy - d));
        out.push(Square::new(cx, cy - d));
        // South arm: V,cx,cy+d-1.
        out.push(Square::new(cx - 1, cy + d - 1));
        out.push(Square::new(cx, cy + d - 1));
        // West arm: H,cx-d,cy separates (cx-d,cy-1) and (cx-d,cy).
        out.push(Square::new(cx - d, cy - 1));
        out.push(Square::new(cx - d, cy));
        // East arm: H,cx+d-1,cy.
        out.push(Square::new(cx + d - 1, cy - 1));
        out.push(Square::new(cx + d - 1, cy));
    }
    out
}

/// MSN-1 door group: contiguous along one grid line, every edge between two
/// on-board passable squares and not in W.
fn check_door_group(board: &Board, group: &[Edge]) -> Result<(), String> {
    let Some(&first) = group.first() else {
        return Err("empty door group".into());
    };
    let mut along: Vec<i32> = Vec::with_capacity(group.len());
    for &e in group {
        let (line, pos) = match (first, e) {
            (Edge::V { x: l0, .. }, Edge::V { x, y }) if x == l0 => (x, y),
            (Edge::H { y: l0, .. }, Edge::H { x, y }) if y == l0 => (y, x),
            _ => return Err(format!("door edge {e} is not on the line of {first}")),
        };
        let _ = line;
        along.push(pos);
        let (a, b) = e.squares();
        if !board.passable(a) || !board.passable(b) {
            return Err(format!(
                "door edge {e} does not separate two passable squares"
            ));
        }
        if board.is_wall(e) {
            return Err(format!("door edge {e} is already a wall"));
        }
    }
    along.sort_unstable();
    if along.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(format!("door group at {first} is not contiguous"));
    }
    Ok(())
}

/// A generic goal term before it is checked against the predicate list.
#[derive(Debug)]
enum Term {
    /// A bare word or number.
    Atom(String),
    /// `[a, b]`.
    List(Vec<String>),
    /// `name(args)`.
    Call(String, Vec<Term>),
}

/// Recursive-descent reader for the goal grammar (see the data file).
struct GoalReader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl GoalReader<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!(
                "goal: expected `{}` at column {}",
                c as char,
                self.pos + 1
            ))
        }
    }

    fn word(&mut self) -> Result<String, String> {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || b"_-#".contains(&self.s[self.pos]))
        {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(format!("goal: expected a name at column {}", self.pos + 1));
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn term(&mut self) -> Result<Term, String> {
        if self.peek() == Some(b'[') {
            self.pos += 1;
            let mut items = Vec::new();
            if self.peek() != Some(b']') {
                loop {
                    items.push(self.word()?);
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
            }
            self.expect(b']')?;
            return Ok(Term::List(items));
        }
        let name = self.word()?;
        if self.peek() != Some(b'(') {
            return Ok(Term::Atom(name));
        }
        self.pos += 1;
        let mut args = Vec::new();
        if self.peek() != Some(b')') {
            loop {
                args.push(self.term()?);
                if self.peek() == Some(b',') {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        self.expect(b')')?;
        Ok(Term::Call(name, args))
    }
}

/// Parse a goal expression (MSN-2 predicates, `and(...)`, `or(...)`).
pub fn parse_goal(text: &str) -> Result<Goal, String> {
    let mut r = GoalReader {
        s: text.as_bytes(),
        pos: 0,
    };
    let t = r.term()?;
    if r.peek().is_some() {
        return Err(format!("goal: unexpected text at column {}", r.pos + 1));
    }
    term_to_goal(&t)
}

/// Names from arguments that are words or `[lists]`, flattened.
fn names(args: &[Term], pred: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Term::Atom(w) => out.push(w.clone()),
            Term::List(l) => out.extend(l.iter().cloned()),
            Term::Call(..) => return Err(format!("{pred}: expected names")),
        }
    }
    if out.is_empty() {
        return Err(format!("{pred}: needs at least one name"));
    }
    Ok(out)
}

fn count(t: &Term, pred: &str) -> Result<u32, String> {
    match t {
        Term::Atom(w) => w
            .parse()
            .map_err(|_| format!("{pred}: `{w}` is not a count")),
        _ => Err(format!("{pred}: expected a count")),
    }
}

fn term_to_goal(t: &Term) -> Result<Goal, String> {
    let (name, args): (&str, &[Term]) = match t {
        Term::Atom(w) => (w.as_str(), &[]),
        Term::Call(n, a) => (n.as_str(), a.as_slice()),
        Term::List(_) => return Err("goal: a list is not a goal".into()),
    };
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("{name}: takes {n} argument(s), got {}", args.len()))
        }
    };
    Ok(match name {
        "and" | "or" => {
            if args.len() < 2 {
                return Err(format!("{name}: needs at least 2 goals"));
            }
            let gs = args
                .iter()
                .map(term_to_goal)
                .collect::<Result<Vec<_>, _>>()?;
            if name == "and" {
                Goal::And(gs)
            } else {
                Goal::Or(gs)
            }
        }
        "special_done" => {
            arity(2)?;
            let action = names(&args[..1], name)?.remove(0);
            Goal::SpecialDone {
                action,
                times: count(&args[1], name)?,
            }
        }
        "exited" => {
            arity(2)?;
            // `k` = one per corporation player, stored as 0.
            let n = match &args[0] {
                Term::Atom(w) if w == "k" => 0,
                other => count(other, name)?,
            };
            Goal::Exited {
                count: n,
                exits: names(&args[1..], name)?,
            }
        }
        "carried_out" => {
            arity(2)?;
            Goal::CarriedOut {
                token: names(&args[..1], name)?.remove(0),
                exits: names(&args[1..], name)?,
            }
        }
        "eliminated" => {
            arity(1)?;
            Goal::Eliminated(names(args, name)?.remove(0))
        }
        "destroyed" => Goal::Destroyed(names(args, name)?),
        "hacked" => Goal::Hacked(names(args, name)?),
        "pp_earned" => {
            arity(1)?;
            Goal::PpEarned(count(&args[0], name)?)
        }
        "alive" => {
            arity(1)?;
            Goal::Alive(count(&args[0], name)?)
        }
        "then" => {
            let [a, b] = args else {
                return Err("then: expected then(<goal>, <goal>)".into());
            };
            Goal::Then {
                first: Box::new(term_to_goal(a)?),
                next: Box::new(term_to_goal(b)?),
            }
        }
        "all_dl_eliminated" => {
            arity(0)?;
            Goal::AllDlEliminated
        }
        other => return Err(format!("goal: unknown predicate `{other}`")),
    })
}

/// Parse a number list such as `1-32 37-44` (inclusive runs), sorted, with
/// duplicates rejected (a card cannot be in the pool twice).
fn parse_number_list(words: &[String]) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for w in words {
        if w == "none" {
            continue;
        }
        let (a, b) = match w.split_once('-') {
            Some((a, b)) => (a, b),
            None => (w.as_str(), w.as_str()),
        };
        let a: u32 = a
            .parse()
            .map_err(|_| format!("`{w}` is not a number or a-b run"))?;
        let b: u32 = b
            .parse()
            .map_err(|_| format!("`{w}` is not a number or a-b run"))?;
        if a > b {
            return Err(format!("run `{w}` is reversed"));
        }
        out.extend(a..=b);
    }
    out.sort_unstable();
    if let Some(w) = out.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("number {} is listed twice", w[0]));
    }
    Ok(out)
}

/// `15N`, `CITADEL` or `name=SQ(x,y)+SQ(x,y)`.
fn parse_entrance(word: &str, layout: Option<&Layout>) -> Result<(String, EntranceRef), String> {
    if word == "CITADEL" {
        return Ok((word.to_string(), EntranceRef::Citadel));
    }
    if let Some((name, sqs)) = word.split_once('=') {
        let mut list = Vec::new();
        for part in sqs.split('+') {
            let inner = part
                .strip_prefix("SQ(")
                .and_then(|p| p.strip_suffix(')'))
                .ok_or_else(|| format!("entrance `{word}`: expected SQ(x,y)+SQ(x,y)..."))?;
            list.push(parse_xy(inner)?);
        }
        return Ok((name.to_string(), EntranceRef::Squares(list)));
    }
    let side = match word.chars().last() {
        Some('N') => Side::N,
        Some('E') => Side::E,
        Some('S') => Side::S,
        Some('W') => Side::W,
        _ => return Err(format!("entrance `{word}`: expected <tile><N|E|S|W>")),
    };
    let tile: u32 = word[..word.len() - 1]
        .parse()
        .map_err(|_| format!("entrance `{word}`: expected <tile><N|E|S|W>"))?;
    let layout = layout.ok_or("entrances need the LAYOUT line first")?;
    if !layout.cells.iter().any(|c| c.tile == tile) {
        return Err(format!(
            "entrance `{word}`: tile {tile} is not in the layout"
        ));
    }
    Ok((word.to_string(), EntranceRef::TileSide { tile, side }))
}

/// `x,y` as a square.
fn parse_xy(s: &str) -> Result<Square, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}`: expected x,y"))?;
    Ok(Square::new(
        parse_num(x.trim(), "coordinate")?,
        parse_num(y.trim(), "coordinate")?,
    ))
}

/// A token position: `tile:lx,ly` (MAP-15, after rotation) or `(x,y)`.
fn parse_position(s: &str, layout: Option<&Layout>) -> Result<Square, String> {
    if let Some(inner) = s.strip_prefix('(').and_then(|p| p.strip_suffix(')')) {
        return parse_xy(inner);
    }
    let (tile, local) = s
        .split_once(':')
        .ok_or_else(|| format!("position `{s}`: expected tile:lx,ly or (x,y)"))?;
    let tile: u32 = tile
        .parse()
        .map_err(|_| format!("position `{s}`: bad tile id"))?;
    let l = parse_xy(local)?;
    if !(0..8).contains(&l.x) || !(0..8).contains(&l.y) {
        return Err(format!("position `{s}`: local square outside 0..7"));
    }
    let layout = layout.ok_or("positions need the LAYOUT line first")?;
    let cell = layout
        .cells
        .iter()
        .find(|c| c.tile == tile)
        .ok_or_else(|| format!("position `{s}`: tile {tile} is not in the layout"))?;
    // Layout slots are small; the origin is (8c, 8r) (MAP-11).
    let (ox, oy) = (cell.col as i32 * 8, cell.row as i32 * 8);
    Ok(Square::new(ox + l.x, oy + l.y))
}

/// `yes` / `no`.
/// A creature by its id (`centurion`, `praetorian_stalker`).
fn parse_creature(s: &str) -> Result<CreatureKind, String> {
    CreatureKind::ALL
        .into_iter()
        .find(|k| k.id() == s)
        .ok_or_else(|| format!("unknown creature `{s}` (expected an id like `centurion`)"))
}

/// A small count 0..=255.
fn parse_small(s: &str, what: &str) -> Result<u8, String> {
    s.parse()
        .map_err(|_| format!("{what}: `{s}` is not a number 0..=255"))
}

fn parse_flag(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        o => Err(format!("`{o}`: expected yes or no")),
    }
}

/// Fields of a mission being read, before its `END`.
#[derive(Default)]
struct Draft {
    id: String,
    name: String,
    edition: Option<Edition>,
    line: usize,
    layout: Option<Layout>,
    citadel: Option<Square>,
    rounds: Option<u32>,
    events: Option<Vec<u32>>,
    force: Option<Vec<u32>>,
    red: Vec<(String, EntranceRef)>,
    white: Vec<(String, EntranceRef)>,
    exits: Vec<(String, EntranceRef)>,
    start: Option<StartMode>,
    tokens: Vec<TokenPlacement>,
    figures: Vec<FigurePlacement>,
    pool: Vec<(CreatureKind, u8)>,
    doors: Vec<Vec<Edge>>,
    specials: Vec<SpecialActionDef>,
    goal: Option<Goal>,
    /// Line of the GOAL field, where its cross-reference errors belong.
    goal_line: usize,
    ends_early: Option<bool>,
    rewards: Option<Rewards>,
    secondary: Option<bool>,
    rules: Vec<String>,
}

/// Store a single-valued field, rejecting a second occurrence.
fn once<T>(slot: &mut Option<T>, kw: &str, v: T) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{kw} given twice"));
    }
    *slot = Some(v);
    Ok(())
}

impl Draft {
    /// Apply one field line (already tokenized; `rest` is the raw text after
    /// the keyword, for LAYOUT and GOAL whose syntax has its own spaces).
    fn field(&mut self, toks: &[String], rest: &str, line: usize) -> Result<(), String> {
        let kw = toks[0].as_str();
        let args = &toks[1..];
        let one = || -> Result<&str, String> {
            match args {
                [a] => Ok(a.as_str()),
                _ => Err(format!("{kw} takes exactly one value")),
            }
        };
        match kw {
            "LAYOUT" => once(&mut self.layout, kw, Layout::parse(rest)?)?,
            "CITADEL" => once(&mut self.citadel, kw, parse_xy(one()?)?)?,
            "ROUNDS" => {
                let n: u32 = one()?
                    .parse()
                    .map_err(|_| "ROUNDS: not a number".to_string())?;
                once(&mut self.rounds, kw, n)?;
            }
            "EVENTS" => once(&mut self.events, kw, parse_number_list(args)?)?,
            "FORCE" => once(&mut self.force, kw, parse_number_list(args)?)?,
            "RED" | "WHITE" | "EXITS" => {
                if args.is_empty() {
                    return Err(format!("{kw}: no entrance given"));
                }
                for a in args {
                    let e = parse_entrance(a, self.layout.as_ref())?;
                    let list = match kw {
                        "RED" => &mut self.red,
                        "WHITE" => &mut self.white,
                        _ => &mut self.exits,
                    };
                    if list.iter().any(|(id, _)| *id == e.0) {
                        return Err(format!("{kw}: {} listed twice", e.0));
                    }
                    list.push(e);
                }
            }
            "START" => {
                let mode = match args {
                    [m] if m == "entrance" => StartMode::Entrance,
                    [m, t] if m == "tile" => {
                        let t: u32 = t.parse().map_err(|_| "START tile: bad tile id")?;
                        let in_layout = self
                            .layout
                            .as_ref()
                            .is_some_and(|l| l.cells.iter().any(|c| c.tile == t));
                        if !in_layout {
                            return Err(format!("START tile {t}: not in the layout"));
                        }
                        StartMode::Tile(t)
                    }
                    _ => return Err("START: expected `entrance` or `tile <id>`".into()),
                };
                once(&mut self.start, kw, mode)?;
            }
            "TOKEN" => {
                let (kind, pos, extra) = match args {
                    [k, p, extra @ ..] => (k, p, extra),
                    _ => return Err("TOKEN: expected <kind> <position> [NAME=x]".into()),
                };
                let kind = TokenKind::parse(kind)
                    .ok_or_else(|| format!("TOKEN: unknown kind `{kind}`"))?;
                let square = parse_position(pos, self.layout.as_ref())?;
                let (mut name, mut dv, mut pp) = (None, None, None);
                for e in extra {
                    match e.split_once('=') {
                        Some(("NAME", n)) if !n.is_empty() => {
                            once(&mut name, "NAME", n.to_string())?
                        }
                        Some(("DV", v)) => once(&mut dv, "DV", parse_small(v, "TOKEN DV")?)?,
                        Some(("PP", v)) => once(&mut pp, "PP", parse_small(v, "TOKEN PP")?)?,
                        _ => {
                            return Err(format!(
                                "TOKEN: `{e}`: expected NAME=<name>, DV=<n> or PP=<n>"
                            ))
                        }
                    }
                }
                if dv.is_some() != pp.is_some() {
                    return Err("TOKEN: DV= and PP= go together".into());
                }
                if dv.is_some() && name.is_none() {
                    return Err("TOKEN: a token with DV= and PP= needs NAME=".into());
                }
                if name.is_some() && self.tokens.iter().any(|t| t.name == name) {
                    return Err("TOKEN: name used twice".into());
                }
                self.tokens.push(TokenPlacement {
                    kind,
                    square,
                    name,
                    dv,
                    pp,
                });
            }
            "FIGURE" => {
                let (kind, pos, extra) = match args {
                    [k, p, extra @ ..] => (k, p, extra),
                    _ => {
                        return Err(
                            "FIGURE: expected <creature> <position> TAG=<tag> [ACTIONS=<n>]".into(),
                        )
                    }
                };
                let kind = parse_creature(kind)?;
                let square = parse_position(pos, self.layout.as_ref())?;
                let (mut tag, mut actions) = (None, None);
                for e in extra {
                    match e.split_once('=') {
                        Some(("TAG", t)) if !t.is_empty() => once(&mut tag, "TAG", t.to_string())?,
                        Some(("ACTIONS", v)) => {
                            let n = parse_small(v, "FIGURE ACTIONS")?;
                            if n == 0 {
                                return Err("FIGURE: ACTIONS must be at least 1".into());
                            }
                            once(&mut actions, "ACTIONS", n)?;
                        }
                        _ => {
                            return Err(format!("FIGURE: `{e}`: expected TAG=<tag> or ACTIONS=<n>"))
                        }
                    }
                }
                let tag = tag.ok_or("FIGURE: TAG=<tag> is required")?;
                if self.figures.iter().any(|f| f.tag == tag) {
                    return Err(format!("FIGURE: tag `{tag}` used twice"));
                }
                self.figures.push(FigurePlacement {
                    kind,
                    square,
                    tag,
                    actions,
                });
            }
            "POOL" => {
                if args.is_empty() {
                    return Err("POOL: expected <creature>=<n> ...".into());
                }
                for a in args {
                    let (k, v) = a
                        .split_once('=')
                        .ok_or_else(|| format!("POOL: `{a}`: expected <creature>=<n>"))?;
                    let kind = parse_creature(k)?;
                    if self.pool.iter().any(|(p, _)| *p == kind) {
                        return Err(format!("POOL: {k} listed twice"));
                    }
                    self.pool.push((kind, parse_small(v, "POOL")?));
                }
            }
            "DOORS" => {
                let mut group = Vec::new();
                for a in args {
                    group.extend(parse_edge_term(a, false)?);
                }
                if group.is_empty() {
                    return Err("DOORS: no edge given".into());
                }
                self.doors.push(group);
            }
            "SPECIAL" => {
                let (id, name, extra) = match args {
                    [i, n, extra @ ..] => (i, n, extra),
                    _ => {
                        return Err(
                            "SPECIAL: expected <id> \"<name>\" ADJACENT=<kind> [ONCE=yes|no]"
                                .into(),
                        )
                    }
                };
                let mut adjacent_to = None;
                let mut once_per_feature = false;
                for e in extra {
                    if let Some(k) = e.strip_prefix("ADJACENT=") {
                        adjacent_to = Some(
                            TokenKind::parse(k)
                                .ok_or_else(|| format!("SPECIAL: unknown kind `{k}`"))?,
                        );
                    } else if let Some(f) = e.strip_prefix("ONCE=") {
                        once_per_feature = parse_flag(f)?;
                    } else {
                        return Err(format!("SPECIAL: unknown option `{e}`"));
                    }
                }
                if self.specials.iter().any(|s| s.id == *id) {
                    return Err(format!("SPECIAL: {id} defined twice"));
                }
                self.specials.push(SpecialActionDef {
                    id: id.clone(),
                    name: name.clone(),
                    adjacent_to: adjacent_to.ok_or("SPECIAL: ADJACENT=<kind> is required")?,
                    once_per_feature,
                });
            }
            "GOAL" => {
                once(&mut self.goal, kw, parse_goal(rest)?)?;
                self.goal_line = line;
            }
            "ENDS_EARLY" => once(&mut self.ends_early, kw, parse_flag(one()?)?)?,
            "SECONDARY" => once(&mut self.secondary, kw, parse_flag(one()?)?)?,
            "REWARDS" => {
                let (mut s, mut f, mut c) = (None, None, None);
                let (mut dt, mut dl) = (None, None);
                for a in args {
                    let (k, v) = a
                        .split_once('=')
                        .ok_or_else(|| format!("REWARDS: `{a}`: expected key=value"))?;
                    match k {
                        "success" => once(&mut s, k, parse_num(v, "REWARDS")?)?,
                        "failure" => once(&mut f, k, parse_num(v, "REWARDS")?)?,
                        "commander" => once(&mut c, k, parse_num(v, "REWARDS")?)?,
                        "credits" => once(&mut dt, k, parse_small(v, "REWARDS credits")?)?,
                        "dl_credits" => once(&mut dl, k, parse_small(v, "REWARDS dl_credits")?)?,
                        _ => return Err(format!("REWARDS: unknown key `{k}`")),
                    }
                }
                let r = if dt.is_some() || dl.is_some() {
                    // Classic CEC-2: credits, never PP.
                    if s.is_some() || f.is_some() || c.is_some() {
                        return Err(
                            "REWARDS: credits= and dl_credits= replace success=, failure= and commander="
                                .into(),
                        );
                    }
                    Rewards {
                        success: 0,
                        failure: 0,
                        commander: 0,
                        credits: Some(CreditRewards {
                            dt: dt.ok_or("REWARDS: credits= missing")?,
                            dl: dl.ok_or("REWARDS: dl_credits= missing")?,
                        }),
                    }
                } else {
                    Rewards {
                        success: s.ok_or("REWARDS: success= missing")?,
                        failure: f.ok_or("REWARDS: failure= missing")?,
                        commander: c.ok_or("REWARDS: commander= missing")?,
                        credits: None,
                    }
                };
                once(&mut self.rewards, kw, r)?;
            }
            "RULE" => {
                let key = one()?;
                self.rules.push(key.to_string());
            }
            other => return Err(format!("unknown keyword `{other}`")),
        }
        Ok(())
    }

    /// Check cross-references and build the record. Errors carry the line
    /// they belong to: the GOAL line for goal references, else `end_line`.
    fn finish(self, end_line: usize) -> Result<MissionDef, (usize, String)> {
        let missing = |f: &str| (end_line, format!("mission {}: {f} missing", self.id));
        let at_end = |m: &str| (end_line, m.to_string());
        let goal = self.goal.ok_or_else(|| missing("GOAL"))?;
        let ids: Vec<&str> = self
            .white
            .iter()
            .chain(&self.red)
            .chain(&self.exits)
            .map(|(id, _)| id.as_str())
            .collect();
        check_goal_refs(&goal, &self.specials, &self.tokens, &ids)
            .map_err(|m| (self.goal_line, m))?;
        if self.start == Some(StartMode::Entrance) && self.white.is_empty() {
            return Err(at_end("START entrance needs at least one WHITE entrance"));
        }
        let citadel_used = self
            .white
            .iter()
            .chain(&self.red)
            .chain(&self.exits)
            .any(|(_, e)| *e == EntranceRef::Citadel);
        if citadel_used && self.citadel.is_none() {
            return Err(at_end("a CITADEL entrance needs a CITADEL point"));
        }
        Ok(MissionDef {
            name: self.name,
            edition: self.edition.ok_or_else(|| missing("EDITION"))?,
            layout: self.layout.ok_or_else(|| missing("LAYOUT"))?,
            citadel: self.citadel,
            rounds: self.rounds.ok_or_else(|| missing("ROUNDS"))?,
            events: self.events.ok_or_else(|| missing("EVENTS"))?,
            force_cards: self.force.ok_or_else(|| missing("FORCE"))?,
            red: self.red,
            white: self.white,
            exits: self.exits,
            start: self.start.ok_or_else(|| missing("START"))?,
            tokens: self.tokens,
            figures: self.figures,
            pool: self.pool,
            doors: self.doors,
            special_actions: self.specials,
            goal,
            ends_early: self.ends_early.ok_or_else(|| missing("ENDS_EARLY"))?,
            rewards: self.rewards.ok_or_else(|| missing("REWARDS"))?,
            secondary: self.secondary.ok_or_else(|| missing("SECONDARY"))?,
            special_rules: self.rules,
            line: self.line,
            id: self.id,
        })
    }
}

/// Every name a goal uses must exist: special actions, named tokens (for
/// `destroyed`, `hacked`, `carried_out`) and entrance/exit ids.
fn check_goal_refs(
    goal: &Goal,
    specials: &[SpecialActionDef],
    tokens: &[TokenPlacement],
    exits: &[&str],
) -> Result<(), String> {
    let token = |n: &String| {
        if tokens.iter().any(|t| t.name.as_ref() == Some(n)) {
            Ok(())
        } else {
            Err(format!("goal names token `{n}`, which no TOKEN line names"))
        }
    };
    let exit = |n: &String| {
        if exits.contains(&n.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "goal names exit `{n}`, which is not an entrance or exit"
            ))
        }
    };
    match goal {
        Goal::And(gs) | Goal::Or(gs) => {
            for g in gs {
                check_goal_refs(g, specials, tokens, exits)?;
            }
        }
        Goal::SpecialDone { action, .. } => {
            if !specials.iter().any(|s| s.id == *action) {
                return Err(format!(
                    "goal names special action `{action}`, which is not defined"
                ));
            }
        }
        Goal::Exited { exits: e, .. } => e.iter().try_for_each(exit)?,
        Goal::CarriedOut { token: t, exits: e } => {
            token(t)?;
            e.iter().try_for_each(exit)?;
        }
        Goal::Destroyed(ts) | Goal::Hacked(ts) => ts.iter().try_for_each(token)?,
        Goal::Then { first, next } => {
            check_goal_refs(first, specials, tokens, exits)?;
            check_goal_refs(next, specials, tokens, exits)?;
        }
        Goal::Eliminated(_) | Goal::PpEarned(_) | Goal::AllDlEliminated | Goal::Alive(_) => {}
    }
    Ok(())
}

/// Parse a missions file (format at the top of `data/missions/ce.missions`
/// and in `docs/CONTENT.md`, "Missions").
///
/// # Errors
/// The first problem, with its file and line.
pub fn parse_missions(file: &str, text: &str) -> Result<Vec<MissionDef>, ContentError> {
    let err = |line: usize, msg: String| ContentError::new(file, line, msg);
    let mut out: Vec<MissionDef> = Vec::new();
    let mut cur: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let toks = split_tokens(line).map_err(|m| err(n, m))?;
        let kw = toks[0].as_str();
        // The raw text after the keyword, for LAYOUT and GOAL.
        let rest = line
            .split_once(char::is_whitespace)
            .map_or("", |(_, r)| r.trim());
        match (kw, cur.as_mut()) {
            ("MISSION", Some(d)) => {
                return Err(err(
                    n,
                    format!("MISSION before END of {} (line {})", d.id, d.line),
                ));
            }
            ("MISSION", None) => {
                let (id, name, ed) = match &toks[1..] {
                    [i, nm, e] => (i, nm, e),
                    _ => {
                        return Err(err(
                            n,
                            "expected MISSION <id> \"<name>\" EDITION=<ce|classic>".into(),
                        ))
                    }
                };
                let edition = match ed.as_str() {
                    "EDITION=ce" => Edition::Ce,
                    "EDITION=classic" => Edition::Classic,
                    o => {
                        return Err(err(
                            n,
                            format!("`{o}`: expected EDITION=ce or EDITION=classic"),
                        ))
                    }
                };
                if out.iter().any(|m| m.id == *id) {
                    return Err(err(n, format!("duplicate mission id {id}")));
                }
                cur = Some(Draft {
                    id: id.clone(),
                    name: name.clone(),
                    edition: Some(edition),
                    line: n,
                    ..Draft::default()
                });
            }
            (_, None) => return Err(err(n, format!("`{kw}` outside a MISSION block"))),
            ("END", Some(_)) => {
                if toks.len() != 1 {
                    return Err(err(n, "END takes no arguments".into()));
                }
                if let Some(d) = cur.take() {
                    out.push(d.finish(n).map_err(|(l, m)| err(l, m))?);
                }
            }
            (_, Some(d)) => d.field(&toks, rest, n).map_err(|m| err(n, m))?,
        }
    }
    if let Some(d) = cur {
        return Err(err(d.line, format!("mission {} has no END", d.id)));
    }
    Ok(out)
}
