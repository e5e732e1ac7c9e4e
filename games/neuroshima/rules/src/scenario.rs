//! Boards built by hand: the worked examples' and the benches' harness.

use crate::data::{self, Class};
use crate::engine::{idx, NeuroshimaGame, N};
use crate::types::*;
use citadel_hex::Hex;

/// A game in the action step of turn 3 (seat 0 active), with tiles put on
/// the board directly and the rest in unshuffled draw piles.
#[derive(Clone, Debug)]
pub struct Scenario {
    game: NeuroshimaGame,
}

impl Scenario {
    /// Seat 0 plays `a`, seat 1 `b` (army ids).
    ///
    /// # Panics
    /// An unknown army id (a test's mistake).
    #[allow(clippy::expect_used)]
    pub fn new(a: &str, b: &str) -> Scenario {
        let armies = [data::army(a).expect("army"), data::army(b).expect("army")];
        let mut players = Vec::new();
        for (seat, army) in armies.iter().enumerate() {
            let mut pile = Vec::new();
            for (ki, k) in army.kinds.iter().enumerate() {
                if k.class == Class::Hq {
                    continue;
                }
                for n in 1..=k.count {
                    pile.push(TileId {
                        seat: seat as u8,
                        kind: ki as u8,
                        k: n,
                    });
                }
            }
            players.push(PlayerState {
                draw: pile,
                hand: Vec::new(),
                discard: Vec::new(),
                hq_placed: false,
            });
        }
        let p1 = players.pop().expect("two");
        let p0 = players.pop().expect("two");
        Scenario {
            game: NeuroshimaGame {
                state: State {
                    options: Options::default(),
                    armies: [a.to_string(), b.to_string()],
                    first: 0,
                    turn: 3,
                    active: 0,
                    players: [p0, p1],
                    board: [None; N],
                    stage: Stage::Action,
                    rotation_used: false,
                    finale: None,
                    battle: None,
                    bomb: None,
                    result: None,
                },
                armies,
            },
        }
    }

    /// Set the options.
    pub fn options(mut self, o: Options) -> Scenario {
        self.game.state.options = o;
        self
    }

    /// Put the next copy of `kind` of `seat` on `(q, r)` with rotation `rot`.
    ///
    /// # Panics
    /// Unknown kind, no copy left, or an occupied or off-board hex.
    #[allow(clippy::expect_used)]
    pub fn tile(mut self, seat: u8, kind: &str, q: i8, r: i8, rot: u8) -> Scenario {
        let t = self.take(seat, kind);
        let i = idx(Hex::new(q, r)).expect("on board");
        assert!(self.game.state.board[i].is_none(), "occupied ({q},{r})");
        if self.game.kind(t).class == Class::Hq {
            self.game.state.players[usize::from(seat)].hq_placed = true;
        }
        self.game.state.board[i] = Some(Placed {
            tile: t,
            rot,
            damage: 0,
        });
        self
    }

    /// Put the next copy of `kind` of `seat` in its hand.
    pub fn hand(mut self, seat: u8, kind: &str) -> Scenario {
        let t = self.take(seat, kind);
        self.game.state.players[usize::from(seat)].hand.push(t);
        self
    }

    /// Damage the tile on `(q, r)`.
    #[allow(clippy::expect_used)]
    pub fn damage(mut self, q: i8, r: i8, d: u8) -> Scenario {
        let i = idx(Hex::new(q, r)).expect("on board");
        if let Some(p) = self.game.state.board[i].as_mut() {
            p.damage = d;
        }
        self
    }

    #[allow(clippy::expect_used)]
    fn take(&mut self, seat: u8, kind: &str) -> TileId {
        let army = self.game.armies[usize::from(seat)];
        let ki = army.kind_index(kind).expect("kind");
        if army.kinds[usize::from(ki)].class == Class::Hq {
            return TileId {
                seat,
                kind: ki,
                k: 1,
            };
        }
        let pile = &mut self.game.state.players[usize::from(seat)].draw;
        let pos = pile.iter().position(|t| t.kind == ki).expect("a copy left");
        pile.remove(pos)
    }

    /// The game.
    pub fn build(self) -> NeuroshimaGame {
        self.game
    }
}

impl NeuroshimaGame {
    /// `(kind id, damage, rotation)` of the tile on `(q, r)`.
    pub fn describe(&self, q: i8, r: i8) -> Option<(&'static str, u8, u8)> {
        let p = self.at(Hex::new(q, r))?;
        Some((self.kind(p.tile).id.as_str(), p.damage, p.rot))
    }

    /// The tile id of the tile on `(q, r)`.
    pub fn tile_on(&self, q: i8, r: i8) -> Option<TileId> {
        self.at(Hex::new(q, r)).map(|p| p.tile)
    }

    /// Tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.state.board.iter().flatten().count()
    }
}
