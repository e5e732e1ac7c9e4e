//! The 1993 secondary missions (classic.md CSM-1, CSM-2 and the 10-card
//! table), over the proof-keeping of [`crate::game::secondary`].
//!
//! CSM-1: with 3 or more corporation teams, two corporation markers are
//! drawn at random; those teams pursue the primary mission, every other
//! team draws one card in secret (no choice, unlike CE's keep-1-of-2).
//! The card is in its owner's view only until the mission ends
//! (`TeamView::secondary`), the deal event is redacted for everyone else,
//! and which teams are on the primary mission is public
//! (`TeamView::primary`). CSM-2: at mission end each card is revealed and
//! resolved; the reward is credits, which the campaign keeps, so the game
//! only lists them (`Game::credit_awards`): +2 to the team on success, +1
//! to the Dark Legion player on failure (the numbers are data,
//! `data/classic/secondary.toml`).
//!
//! Card numbers follow the table's order. Card 2 (Capture Alien
//! Specimen) takes a Centurion or Razide prisoner with the `capture`
//! Special action: from the end of that turn the Dark Legion no longer
//! uses it, and from the team's next turn the team may move it (Move
//! actions only, its own action count, creature movement) until it
//! leaves by a white entrance; anyone may attack it, and if it is
//! eliminated the card fails.
//!
//! *Decisions* (docs/RULES-COVERAGE.md, "CSM decisions"): "earned PP" is
//! the PP gained from eliminations this mission, before any loss (as
//! README D47); the message is taken automatically when its holder's turn
//! ends with a team DT on an entry square, and, like every action on the
//! board, that is public, while the card itself stays secret; "side
//! openings" of the stairs sector are the openings in its sides onto a
//! neighbouring sector (not board-edge entrances); a team with no turn in
//! the final round fails Prepare for Main Attack.

use crate::content::tables::SecondaryDef;
use crate::content::CreatureKind;
use crate::dice::{shuffle_with, Dice};
use crate::game::event::{Event, Place};
use crate::game::ids::{FigureId, Side};
use crate::game::secondary::{CreditAward, SecondaryRules};
use crate::game::state::Game;
use citadel_grid::Square;

/// The 10 cards of the 1993 secondary mission table, by their number in
/// the table's order (`data/classic/secondary.toml`). Only the code uses
/// the names: the state and the wire carry the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ClassicSecondary {
    /// 1: the team earned ≥ 10 PP.
    AttackTheCitadel = 1,
    /// 2: capture a Centurion or Razide and walk it out.
    CaptureAlienSpecimen = 2,
    /// 3: carry the message out.
    ConveyMessage = 3,
    /// 4: the team earned ≥ 15 PP.
    DestroyTheLegion = 4,
    /// 5: ≥ 10 PP and no Legionnaire eliminated by the team.
    LegionnaireMutiny = 5,
    /// 6: a team DT ended a Move on every sector.
    MapTheCitadel = 6,
    /// 7: no Legionnaire on the stairs sector at the end of the
    /// team's turn in the final round.
    PrepareMainAttack = 7,
    /// 8: ≥ 5 wounds taken, both DTs alive or exited.
    ProveYourWorth = 8,
    /// 9: ≥ 4 different DL types eliminated.
    ReplenishCollection = 9,
    /// 10: examine a large creature, then exit through a white
    /// entrance.
    SupportExamination = 10,
}

impl ClassicSecondary {
    /// Every card, in number order.
    pub const ALL: [ClassicSecondary; 10] = [
        ClassicSecondary::AttackTheCitadel,
        ClassicSecondary::CaptureAlienSpecimen,
        ClassicSecondary::ConveyMessage,
        ClassicSecondary::DestroyTheLegion,
        ClassicSecondary::LegionnaireMutiny,
        ClassicSecondary::MapTheCitadel,
        ClassicSecondary::PrepareMainAttack,
        ClassicSecondary::ProveYourWorth,
        ClassicSecondary::ReplenishCollection,
        ClassicSecondary::SupportExamination,
    ];

    /// The card's number, as stored and sent.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// The card numbered `number`, if there is one.
    pub fn from_number(number: u32) -> Option<ClassicSecondary> {
        let i = usize::try_from(number.checked_sub(1)?).ok()?;
        ClassicSecondary::ALL.get(i).copied()
    }
}

// The numbers under the names other crates and the tests use.
/// Card 1, [`ClassicSecondary::AttackTheCitadel`].
pub const ATTACK_THE_CITADEL: u32 = ClassicSecondary::AttackTheCitadel.number();
/// Card 2, [`ClassicSecondary::CaptureAlienSpecimen`].
pub const CAPTURE_ALIEN_SPECIMEN: u32 = ClassicSecondary::CaptureAlienSpecimen.number();
/// Card 3, [`ClassicSecondary::ConveyMessage`].
pub const CONVEY_MESSAGE: u32 = ClassicSecondary::ConveyMessage.number();
/// Card 4, [`ClassicSecondary::DestroyTheLegion`].
pub const DESTROY_THE_LEGION: u32 = ClassicSecondary::DestroyTheLegion.number();
/// Card 5, [`ClassicSecondary::LegionnaireMutiny`].
pub const LEGIONNAIRE_MUTINY: u32 = ClassicSecondary::LegionnaireMutiny.number();
/// Card 6, [`ClassicSecondary::MapTheCitadel`].
pub const MAP_THE_CITADEL: u32 = ClassicSecondary::MapTheCitadel.number();
/// Card 7, [`ClassicSecondary::PrepareMainAttack`].
pub const PREPARE_MAIN_ATTACK: u32 = ClassicSecondary::PrepareMainAttack.number();
/// Card 8, [`ClassicSecondary::ProveYourWorth`].
pub const PROVE_YOUR_WORTH: u32 = ClassicSecondary::ProveYourWorth.number();
/// Card 9, [`ClassicSecondary::ReplenishCollection`].
pub const REPLENISH_COLLECTION: u32 = ClassicSecondary::ReplenishCollection.number();
/// Card 10, [`ClassicSecondary::SupportExamination`].
pub const SUPPORT_EXAMINATION: u32 = ClassicSecondary::SupportExamination.number();

/// Cards the engine cannot play yet: left out of the deal, so no game
/// ever holds one. None today.
pub const UNBUILT: &[u32] = &[];

/// Card 10's Special action.
pub const EXAMINE: &str = "examine";
/// Card 2's Special action.
pub const CAPTURE: &str = "capture";
/// The carried message of card 3 (an objective token while it lies on the
/// board, MSN-4).
pub const MESSAGE: &str = "message";
/// The sector that stands for the stairs sector in the other missions
/// (classic.md CSM, missions.md note 2, README D20).
const STAIRS_SECTOR: u32 = 7;
/// Mission 5's `RULE stairs_sector_4`: sector 4 is its stairs sector.
pub(crate) const STAIRS_SECTOR_4: &str = "stairs_sector_4";
/// The sector `RULE stairs_sector_4` names.
const MISSION_5_STAIRS_SECTOR: u32 = 4;

/// The 1993 cards.
pub(crate) static CLASSIC_SECONDARIES: SecondaryRules = SecondaryRules {
    min_teams: 3,
    assigns_primary: true,
    deal: Game::deal_classic_secondaries,
    specials: &[EXAMINE, CAPTURE],
    special_ok: Game::classic_special_ok,
    record_special: Game::record_classic_special,
    holds: Game::classic_secondary_holds,
    reward: Game::classic_secondary_reward,
    turn_ended: Game::classic_secondary_turn_ended,
    turn_begun: Game::classic_secondary_turn_begun,
};

impl Game {
    /// CSM-1: draw two corporation markers at random (CONV-5: sorted by
    /// id first, so the draw depends only on the dice); every other team,
    /// in draft `order`, draws one card of the shuffled deck, in secret.
    fn deal_classic_secondaries(
        &mut self,
        order: &[u8],
        dice: &mut dyn Dice,
        events: &mut Vec<Event>,
    ) {
        let mut markers: Vec<u8> = (0..self.teams.len() as u8).collect();
        markers.sort_by_key(|t| self.teams[usize::from(*t)].corporation.id());
        let mut primary = Vec::new();
        for _ in 0..2 {
            if markers.is_empty() {
                break;
            }
            let i = dice.below(markers.len() as u32) as usize;
            primary.push(markers.remove(i));
        }
        let mut deck: Vec<u32> = self
            .rules
            .tables
            .secondary
            .iter()
            .map(|s| s.number)
            .filter(|n| !UNBUILT.contains(n))
            .collect();
        shuffle_with(dice, &mut deck);
        self.sec.dealt = true;
        for &t in order.iter().filter(|t| !primary.contains(t)) {
            let Some(card) = deck.pop() else {
                break;
            };
            self.sec.kept[usize::from(t)] = Some(card);
            events.push(Event::SecondaryDealt {
                seat: self.teams[usize::from(t)].seat,
                cards: Some(vec![card]),
            });
        }
        self.sec.deck = deck;
    }

    /// A figure captured by a team (classic Capture Alien Specimen): the
    /// team, and whether it controls the figure yet. No Dark Legion
    /// command may use a captive; its team may only move it.
    pub(crate) fn captor(&self, figure: FigureId) -> Option<(u8, bool)> {
        if !self.sec.dealt {
            return None;
        }
        self.sec
            .proof
            .iter()
            .position(|p| p.captive == Some(figure))
            .map(|t| (t as u8, self.sec.proof[t].captive_ready))
    }

    /// The captive `team` controls now, if any.
    pub(crate) fn captive_of(&self, team: u8) -> Option<FigureId> {
        let p = self.sec.proof.get(usize::from(team))?;
        p.captive.filter(|_| p.captive_ready)
    }

    /// A captive left the board by a white entrance (Capture Alien Specimen's success).
    pub(crate) fn captive_left(&mut self, figure: FigureId) {
        for p in &mut self.sec.proof {
            if p.captive == Some(figure) {
                p.captive_out = true;
            }
        }
    }

    /// A captive left play (eliminated): it is nobody's any more, so the
    /// same figure placed again later is the Dark Legion's.
    pub(crate) fn release_captive(&mut self, figure: FigureId) {
        for p in &mut self.sec.proof {
            if p.captive == Some(figure) {
                p.captive = None;
                p.captive_ready = false;
            }
        }
    }

    /// The card `team` holds.
    fn classic_card(&self, team: u8) -> Option<ClassicSecondary> {
        let card = self.sec.kept.get(usize::from(team)).copied().flatten();
        card.and_then(ClassicSecondary::from_number)
    }

    /// The stairs sector (tile index): sector 4 where the mission says
    /// `RULE stairs_sector_4`, else sector 7, else the sector farthest
    /// from every white entrance (classic.md CSM note).
    pub(crate) fn stairs_tile(&self) -> Option<usize> {
        let board = &self.rules.board;
        let id = if self.rules.mission.has_rule(STAIRS_SECTOR_4) {
            MISSION_5_STAIRS_SECTOR
        } else {
            STAIRS_SECTOR
        };
        board.tile_index(id).or_else(|| self.farthest_tile())
    }

    /// Card 3: the entry squares of the stairs sector's side openings —
    /// its squares with an open orthogonal step onto a passable square of
    /// another sector — in `(y, x)` order.
    pub(crate) fn message_squares(&self) -> Vec<Square> {
        let board = &self.rules.board;
        let Some(tile) = self.stairs_tile() else {
            return Vec::new();
        };
        let mut out: Vec<Square> = self
            .rules
            .tile_squares(tile)
            .filter(|&s| board.passable(s))
            .filter(|&s| {
                [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|&(dx, dy)| {
                    let n = s.offset(dx, dy);
                    board.passable(n)
                        && board.tile_of(n).is_some_and(|t| t != tile)
                        && !self.walls.wall(s, n)
                })
            })
            .collect();
        out.sort_by_key(|s| (s.y, s.x));
        out
    }

    /// Does `figure` carry the card 3 message?
    pub(crate) fn carries_message(&self, figure: FigureId) -> bool {
        self.mission
            .carried
            .iter()
            .any(|(t, f)| t == MESSAGE && *f == figure)
    }

    /// Is the card 3 message an objective marker here (MSN-4: a dropped
    /// message may be picked up again)? Only in a game where it was taken.
    pub(crate) fn is_secondary_token(&self, name: &str) -> bool {
        name == MESSAGE
            && self.secondary_rules().is_some_and(|r| r.assigns_primary)
            && self.sec.proof.iter().any(|p| p.message.is_some())
    }

    /// Card 10's Special action: a DT of the holder, next to (ADJ-4) a
    /// Razide, Nepharite or Ezoghoul, that has not examined one yet.
    fn classic_special_ok(&self, figure: FigureId, action: &str) -> bool {
        let f = &self.figures[figure.index()];
        let (Some(team), Some(at)) = (f.team(), f.square()) else {
            return false;
        };
        if action == CAPTURE {
            let p = &self.sec.proof[usize::from(team)];
            return self.classic_card(team) == Some(ClassicSecondary::CaptureAlienSpecimen)
                && p.captive.is_none()
                && !p.captive_out
                && self.specimen_next_to(at).is_some();
        }
        let board = &self.rules.board;
        action == EXAMINE
            && self.classic_card(team) == Some(ClassicSecondary::SupportExamination)
            && !self.sec.proof[usize::from(team)].examined.contains(&figure)
            && self.figures.iter().any(|g| {
                matches!(
                    g.creature(),
                    Some(CreatureKind::Razide | CreatureKind::Nepharite | CreatureKind::Ezoghoul)
                ) && g
                    .square()
                    .is_some_and(|s| self.walls.adjacent(board, at, s))
            })
    }

    /// Card 2: the Centurion or Razide (ADJ-4) next to `at` that a
    /// capture takes, the lowest figure id first.
    fn specimen_next_to(&self, at: Square) -> Option<FigureId> {
        let board = &self.rules.board;
        self.figures
            .iter()
            .filter(|g| {
                matches!(
                    g.creature(),
                    Some(CreatureKind::Centurion | CreatureKind::Razide)
                ) && g
                    .square()
                    .is_some_and(|s| self.walls.adjacent(board, at, s))
            })
            .map(|g| g.id)
            .min()
    }

    /// Record a checked card 10 examination or card 2 capture.
    fn record_classic_special(&mut self, figure: FigureId, action: &str) {
        let f = &self.figures[figure.index()];
        let (Some(team), Some(at)) = (f.team(), f.square()) else {
            return;
        };
        match action {
            EXAMINE => self.sec.proof[usize::from(team)].examined.push(figure),
            CAPTURE => {
                let captive = self.specimen_next_to(at);
                let p = &mut self.sec.proof[usize::from(team)];
                p.captive = captive;
                p.captive_ready = false;
            }
            _ => {}
        }
    }

    /// Card 2: the captive's turn begins with its team's; it gets the
    /// actions of its kind (creature table, the band's row), Moves only.
    fn classic_secondary_turn_begun(&mut self, team: u8) {
        let Some(id) = self.captive_of(team) else {
            return;
        };
        let Some(kind) = self.figures[id.index()].creature() else {
            return;
        };
        let actions = self.creature_actions(kind);
        let f = &mut self.figures[id.index()];
        f.turn = Default::default();
        f.turn.allowed = actions;
    }

    /// The end of `team`'s turn: card 7 notes whether the stairs sector
    /// is free of Legionnaires; card 3's message is taken by the first
    /// team DT (by figure id) standing on an entry square, if nobody took
    /// it yet.
    fn classic_secondary_turn_ended(&mut self, team: u8, events: &mut Vec<Event>) {
        match self.classic_card(team) {
            // From the team's next turn the captive is the team's.
            Some(ClassicSecondary::CaptureAlienSpecimen) => {
                let p = &mut self.sec.proof[usize::from(team)];
                p.captive_ready = p.captive.is_some();
            }
            Some(ClassicSecondary::PrepareMainAttack) => {
                let tile = self.stairs_tile();
                let board = &self.rules.board;
                let clear = !self.figures.iter().any(|f| {
                    f.creature() == Some(CreatureKind::Legionnaire)
                        && f.square().and_then(|s| board.tile_of(s)) == tile
                });
                self.sec.proof[usize::from(team)].prepared = Some((self.round, clear));
            }
            Some(ClassicSecondary::ConveyMessage)
                if self.sec.proof[usize::from(team)].message.is_none() =>
            {
                let squares = self.message_squares();
                let taker = self.teams[usize::from(team)]
                    .figures
                    .iter()
                    .copied()
                    .find_map(|f| {
                        let at = self.figures[f.index()].square()?;
                        squares.contains(&at).then_some((f, at))
                    });
                if let Some((figure, square)) = taker {
                    self.sec.proof[usize::from(team)].message = Some(figure);
                    self.mission.carried.push((MESSAGE.to_string(), figure));
                    events.push(Event::ObjectivePickedUp {
                        figure,
                        token: MESSAGE.to_string(),
                        square,
                    });
                }
            }
            _ => {}
        }
    }

    /// Does `team`'s card hold at mission end (classic.md CSM table)?
    fn classic_secondary_holds(&self, team: u8, card: u32) -> bool {
        let t = usize::from(team);
        let p = &self.sec.proof[t];
        let earned = self.teams[t].kill_pp;
        let alive_or_out = |f: &FigureId| self.figures[f.index()].place != Place::Eliminated;
        let Some(card) = ClassicSecondary::from_number(card) else {
            return false;
        };
        match card {
            ClassicSecondary::AttackTheCitadel => earned >= 10,
            ClassicSecondary::CaptureAlienSpecimen => p.captive_out,
            ClassicSecondary::ConveyMessage => p.message_out,
            ClassicSecondary::DestroyTheLegion => earned >= 15,
            ClassicSecondary::LegionnaireMutiny => {
                earned >= 10 && !p.kills.iter().any(|k| k.kind == CreatureKind::Legionnaire)
            }
            ClassicSecondary::MapTheCitadel => self.tiles.iter().all(|x| x.marked.contains(&team)),
            ClassicSecondary::PrepareMainAttack => p.prepared == Some((self.round, true)),
            ClassicSecondary::ProveYourWorth => {
                p.health_lost >= 5 && self.teams[t].figures.iter().all(alive_or_out)
            }
            ClassicSecondary::ReplenishCollection => {
                let mut kinds: Vec<CreatureKind> = p.kills.iter().map(|k| k.kind).collect();
                kinds.sort();
                kinds.dedup();
                kinds.len() >= 4
            }
            ClassicSecondary::SupportExamination => {
                p.examined.iter().any(|f| p.exited_white.contains(f))
            }
        }
    }

    /// CSM-2: credits, listed for the campaign (no PP).
    fn classic_secondary_reward(
        &mut self,
        t: u8,
        def: &SecondaryDef,
        success: bool,
        _events: &mut Vec<Event>,
    ) {
        let (side, amount, reason) = if success {
            (Side::Team(t), def.success, "secondary mission success")
        } else {
            (Side::DarkLegion, def.failure, "secondary mission failure")
        };
        self.credits.push(CreditAward {
            team: t,
            side,
            amount,
            reason: reason.to_string(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Corporation;
    use crate::dice::SeededDice;
    use crate::game::position::{FigureSpec, Position, TurnSpec};
    use crate::game::state::Phase;
    use crate::game::{Command, DarkLegionSetup, Setup, Viewer};
    use std::collections::BTreeMap;

    const CORPS: [Corporation; 4] = [
        Corporation::Capitol,
        Corporation::Bauhaus,
        Corporation::Imperial,
        Corporation::Cybertronic,
    ];

    fn setup(mission: &str, teams: usize, seed: u64) -> Setup {
        Setup::new(mission, &CORPS[..teams], DarkLegionSetup::Ai).with_seed(seed)
    }

    /// A fresh game played through the draft (everyone passes): CSM-1's
    /// deal happens as the draft closes. Returns the events so far.
    fn after_draft(mission: &str, teams: usize, seed: u64) -> (Game, Vec<Event>) {
        let mut dice = SeededDice::new(seed);
        let (mut g, mut events) = Game::new(setup(mission, teams, seed), &mut dice).expect("setup");
        while matches!(g.phase, Phase::Equipment { .. }) {
            let seat = g.seat_to_act().expect("a team drafts");
            events.extend(
                g.apply(seat, Command::PassEquipment, &mut dice)
                    .expect("pass"),
            );
        }
        (g, events)
    }

    /// A stated m5 position with 3 teams (Capitol, Bauhaus, Imperial), in
    /// Capitol's turn, and `cards` held.
    fn m5(
        figures: &[(&str, Square)],
        creatures: &[(CreatureKind, Square)],
        cards: &[(Corporation, u32)],
    ) -> Game {
        let mut figs: Vec<FigureSpec> = figures
            .iter()
            .map(|(n, at)| FigureSpec {
                name: Some((*n).to_string()),
                at: Some(*at),
                ..FigureSpec::default()
            })
            .collect();
        figs.extend(creatures.iter().map(|(k, at)| FigureSpec {
            creature: Some(*k),
            at: Some(*at),
            ..FigureSpec::default()
        }));
        let position = Position {
            turn: Some(TurnSpec::Corporation(Corporation::Capitol)),
            figures: figs,
            face_down: (0..7).map(|t| (t, Vec::new())).collect(),
            secondary: cards.iter().copied().collect::<BTreeMap<_, _>>(),
            ..Position::default()
        };
        Game::scenario(
            setup("classic-m5", 3, 1),
            &position,
            &mut SeededDice::new(1),
        )
        .expect("position")
    }

    fn id(g: &Game, name: &str) -> FigureId {
        FigureId(g.names.iter().position(|n| n == name).expect("figure") as u16)
    }

    /// Holder `team` of `card` in a fresh 3-team game after the draft.
    fn holder(card: u32) -> Game {
        let (mut g, _) = after_draft("classic-m5", 3, 3);
        g.sec.kept = vec![Some(card), None, None];
        g
    }

    #[test]
    fn csm_1_two_teams_deal_no_secondary_missions_and_both_pursue_the_primary() {
        for seed in 0..6 {
            let (g, events) = after_draft("classic-m1", 2, seed);
            assert!(!g.sec.dealt, "seed {seed}");
            assert!(!events
                .iter()
                .any(|e| matches!(e, Event::SecondaryDealt { .. })));
            let view = g.view(Viewer::Spectator);
            assert!(view
                .teams
                .iter()
                .all(|t| t.primary == Some(true) && t.secondary.is_none()));
            assert_eq!(g.round, 1, "play began");
        }
    }

    #[test]
    fn csm_1_three_teams_deal_one_secondary_four_teams_two_in_secret() {
        let mut pairs = Vec::new();
        for (mission, teams) in [("classic-m5", 3), ("classic-m1", 4), ("classic-m9", 4)] {
            for seed in 0..12 {
                let (g, events) = after_draft(mission, teams, seed);
                let spectator = g.view(Viewer::Spectator);
                let primary: Vec<u8> = spectator
                    .teams
                    .iter()
                    .filter(|t| t.primary == Some(true))
                    .map(|t| t.team)
                    .collect();
                assert_eq!(primary.len(), 2, "{mission} seed {seed}: two primary teams");
                pairs.push(primary.clone());
                let dealt: Vec<&Event> = events
                    .iter()
                    .filter(|e| matches!(e, Event::SecondaryDealt { .. }))
                    .collect();
                assert_eq!(dealt.len(), teams - 2, "{mission} seed {seed}");
                let mut cards = Vec::new();
                for t in &spectator.teams {
                    assert_eq!(t.secondary, None, "the spectator sees no card");
                    let own = &g.view(Viewer::Seat(t.seat)).teams[usize::from(t.team)];
                    assert_eq!(own.primary, t.primary, "primary is public");
                    match t.primary {
                        Some(true) => assert_eq!(own.secondary, None),
                        _ => {
                            let card = own.secondary.expect("its owner sees its card");
                            assert!((1..=10).contains(&card) && !UNBUILT.contains(&card));
                            cards.push(card);
                        }
                    }
                    for other in spectator.teams.iter().filter(|o| o.seat != t.seat) {
                        let seen = &g.view(Viewer::Seat(other.seat)).teams[usize::from(t.team)];
                        assert_eq!(seen.secondary, None, "another team never sees it");
                    }
                }
                cards.sort_unstable();
                cards.dedup();
                assert_eq!(cards.len(), teams - 2, "different cards");
                for e in dealt {
                    let Event::SecondaryDealt { seat, .. } = e else {
                        continue;
                    };
                    for v in g.seats().into_iter().filter(|s| s != seat) {
                        assert_eq!(
                            e.for_viewer(Viewer::Seat(v)),
                            Event::SecondaryDealt {
                                seat: *seat,
                                cards: None
                            }
                        );
                    }
                    assert_eq!(
                        e.for_viewer(Viewer::Spectator),
                        Event::SecondaryDealt {
                            seat: *seat,
                            cards: None
                        }
                    );
                }
            }
        }
        pairs.sort();
        pairs.dedup();
        assert!(
            pairs.len() >= 3,
            "the primary teams are drawn at random: {pairs:?}"
        );
    }

    #[test]
    fn csm_1_every_card_is_dealt_from_the_ten() {
        let mut seen = Vec::new();
        for seed in 0..40 {
            let (g, _) = after_draft("classic-m1", 4, seed);
            assert_eq!(g.sec.kept.iter().flatten().count() + g.sec.deck.len(), 10);
            seen.extend(g.sec.kept.iter().flatten().copied());
        }
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen,
            (1..=10).collect::<Vec<_>>(),
            "Capture Alien Specimen included"
        );
    }

    #[test]
    fn csm_card_1_attack_the_citadel_needs_10_earned_pp() {
        let mut g = holder(ATTACK_THE_CITADEL);
        g.teams[0].kill_pp = 9;
        g.teams[0].pp = 40;
        assert!(
            !g.classic_secondary_holds(0, ATTACK_THE_CITADEL),
            "PP held before do not count"
        );
        g.teams[0].kill_pp = 10;
        assert!(g.classic_secondary_holds(0, ATTACK_THE_CITADEL));
    }

    #[test]
    fn csm_card_4_destroy_the_legion_needs_15_earned_pp() {
        let mut g = holder(DESTROY_THE_LEGION);
        g.teams[0].kill_pp = 14;
        assert!(!g.classic_secondary_holds(0, DESTROY_THE_LEGION));
        g.teams[0].kill_pp = 15;
        assert!(g.classic_secondary_holds(0, DESTROY_THE_LEGION));
    }

    #[test]
    fn csm_card_5_legionnaire_mutiny_needs_10_pp_and_no_legionnaire_killed() {
        use crate::game::secondary::Kill;
        let kill = |kind| Kill {
            kind,
            attack: None,
            dist: None,
            action: None,
        };
        let mut g = holder(LEGIONNAIRE_MUTINY);
        g.teams[0].kill_pp = 10;
        g.sec.proof[0].kills = vec![kill(CreatureKind::Razide), kill(CreatureKind::Nepharite)];
        assert!(g.classic_secondary_holds(0, LEGIONNAIRE_MUTINY));
        g.sec.proof[0].kills.push(kill(CreatureKind::Legionnaire));
        assert!(
            !g.classic_secondary_holds(0, LEGIONNAIRE_MUTINY),
            "a Legionnaire was killed"
        );
        g.sec.proof[0].kills.pop();
        g.teams[0].kill_pp = 9;
        assert!(
            !g.classic_secondary_holds(0, LEGIONNAIRE_MUTINY),
            "too few PP"
        );
    }

    #[test]
    fn csm_card_6_map_the_citadel_needs_a_move_ended_on_every_sector() {
        let mut g = holder(MAP_THE_CITADEL);
        for t in &mut g.tiles {
            t.marked = vec![0];
        }
        assert!(g.classic_secondary_holds(0, MAP_THE_CITADEL));
        g.tiles[6].marked = vec![1];
        assert!(
            !g.classic_secondary_holds(0, MAP_THE_CITADEL),
            "sector 5 unvisited"
        );
        assert!(!g.classic_secondary_holds(1, MAP_THE_CITADEL));
    }

    #[test]
    fn csm_card_6_a_move_ending_on_a_sector_marks_it_for_the_team() {
        let mut g = m5(
            &[("capitol-big_bob_watts", Square::new(6, 3))],
            &[],
            &[(Corporation::Capitol, MAP_THE_CITADEL)],
        );
        let f = id(&g, "capitol-big_bob_watts");
        let path = vec![Square::new(7, 3), Square::new(8, 3)];
        g.apply(
            g.teams[0].seat,
            Command::Move {
                figure: f,
                path: path.into(),
            },
            &mut SeededDice::new(2),
        )
        .expect("move");
        let sector_3 = g.rules.board.tile_index(3).expect("sector 3");
        assert!(g.tiles[sector_3].marked.contains(&0));
        assert!(
            !g.classic_secondary_holds(0, MAP_THE_CITADEL),
            "not yet every sector"
        );
    }

    #[test]
    fn csm_card_7_prepare_for_main_attack_reads_the_end_of_the_holders_turn() {
        let mut g = m5(
            &[("capitol-big_bob_watts", Square::new(2, 3))],
            &[(CreatureKind::Legionnaire, Square::new(5, 12))],
            &[(Corporation::Capitol, PREPARE_MAIN_ATTACK)],
        );
        let mut events = Vec::new();
        g.classic_secondary_turn_ended(0, &mut events);
        assert_eq!(
            g.sec.proof[0].prepared,
            Some((1, false)),
            "a Legionnaire on sector 4"
        );
        assert!(!g.classic_secondary_holds(0, PREPARE_MAIN_ATTACK));
        // The Legionnaire leaves sector 4 (to sector 1) before the turn ends.
        let leg = g.figure_at(Square::new(5, 12)).expect("legionnaire");
        g.set_place(
            leg,
            Place::Board {
                square: Square::new(5, 5),
            },
        );
        g.classic_secondary_turn_ended(0, &mut events);
        assert!(g.classic_secondary_holds(0, PREPARE_MAIN_ATTACK));
        // A later round without a turn for the team: it fails.
        g.round = 2;
        assert!(!g.classic_secondary_holds(0, PREPARE_MAIN_ATTACK));
        assert!(events.is_empty(), "nothing public happens");
    }

    #[test]
    fn csm_card_8_prove_your_worth_needs_5_wounds_and_both_dts_alive_or_out() {
        let mut g = holder(PROVE_YOUR_WORTH);
        g.sec.proof[0].health_lost = 4;
        assert!(!g.classic_secondary_holds(0, PROVE_YOUR_WORTH));
        g.sec.proof[0].health_lost = 5;
        assert!(g.classic_secondary_holds(0, PROVE_YOUR_WORTH));
        let [a, b] = g.teams[0].figures;
        g.set_place(a, Place::Exited);
        assert!(
            g.classic_secondary_holds(0, PROVE_YOUR_WORTH),
            "exited counts"
        );
        g.set_place(b, Place::Eliminated);
        assert!(!g.classic_secondary_holds(0, PROVE_YOUR_WORTH));
    }

    #[test]
    fn csm_card_9_replenish_collection_needs_4_different_kinds() {
        use crate::game::secondary::Kill;
        let kill = |kind| Kill {
            kind,
            attack: None,
            dist: None,
            action: None,
        };
        let mut g = holder(REPLENISH_COLLECTION);
        g.sec.proof[0].kills = vec![
            kill(CreatureKind::Legionnaire),
            kill(CreatureKind::Legionnaire),
            kill(CreatureKind::Necromutant),
            kill(CreatureKind::Centurion),
        ];
        assert!(
            !g.classic_secondary_holds(0, REPLENISH_COLLECTION),
            "3 kinds"
        );
        g.sec.proof[0].kills.push(kill(CreatureKind::Razide));
        assert!(g.classic_secondary_holds(0, REPLENISH_COLLECTION));
    }

    #[test]
    fn csm_card_3_the_stairs_sector_is_4_in_mission_5_else_7_else_the_farthest() {
        let g = m5(&[], &[], &[]);
        let s = |x, y| Square::new(x, y);
        assert_eq!(g.stairs_tile(), g.rules.board.tile_index(4));
        // Sector 4's openings onto sector 1 (north) and sector 2 (east).
        assert_eq!(
            g.message_squares(),
            vec![s(3, 8), s(4, 8), s(7, 11), s(7, 12)]
        );
        let (m7, _) = after_draft("classic-m7", 2, 1);
        assert_eq!(m7.stairs_tile(), m7.rules.board.tile_index(7));
        let (m1, _) = after_draft("classic-m1", 2, 1);
        assert!(
            m1.rules.board.tile_index(7).is_none(),
            "mission 1 has no sector 7"
        );
        assert_eq!(m1.stairs_tile(), m1.farthest_tile());
        assert!(m1.stairs_tile().is_some());
    }

    #[test]
    fn csm_card_3_convey_message_taken_at_turn_end_handed_over_and_carried_out() {
        let s = Square::new;
        let mut g = m5(
            &[
                ("capitol-big_bob_watts", s(3, 8)),
                ("capitol-mitch_hunter", s(3, 7)),
                ("bauhaus-max_steiner", s(4, 8)),
            ],
            &[],
            &[(Corporation::Capitol, CONVEY_MESSAGE)],
        );
        let bob = id(&g, "capitol-big_bob_watts");
        let mitch = id(&g, "capitol-mitch_hunter");
        let mut events = Vec::new();
        // Another team on an entry square takes nothing.
        g.classic_secondary_turn_ended(1, &mut events);
        assert!(events.is_empty() && g.mission.carried.is_empty());
        g.classic_secondary_turn_ended(0, &mut events);
        assert_eq!(g.sec.proof[0].message, Some(bob));
        assert_eq!(g.mission.carried, vec![(MESSAGE.to_string(), bob)]);
        assert!(
            matches!(&events[..], [Event::ObjectivePickedUp { figure, square, .. }] if *figure == bob && *square == s(3, 8))
        );
        // Only once.
        g.classic_secondary_turn_ended(0, &mut events);
        assert_eq!(events.len(), 1);
        let seat = g.teams[0].seat;
        let mut dice = SeededDice::new(4);
        assert!(g.legal(seat).contains(&Command::HandOver {
            figure: bob,
            to: mitch
        }));
        g.apply(
            seat,
            Command::HandOver {
                figure: bob,
                to: mitch,
            },
            &mut dice,
        )
        .expect("hand over");
        assert!(g.carries_message(mitch) && !g.carries_message(bob));
        assert!(!g.classic_secondary_holds(0, CONVEY_MESSAGE), "not out yet");
        let path = vec![s(2, 6), s(1, 5), s(0, 4)];
        g.apply(
            seat,
            Command::Move {
                figure: mitch,
                path: path.into(),
            },
            &mut dice,
        )
        .expect("move");
        g.apply(
            seat,
            Command::Move {
                figure: mitch,
                path: vec![s(-1, 4)].into(),
            },
            &mut dice,
        )
        .expect("exit by 1W");
        assert!(g.sec.proof[0].message_out);
        assert!(g.classic_secondary_holds(0, CONVEY_MESSAGE));
    }

    #[test]
    fn csm_card_3_a_white_exit_without_the_message_fails_and_a_dropped_message_can_be_taken_again()
    {
        let s = Square::new;
        let mut g = m5(
            &[
                ("capitol-big_bob_watts", s(3, 8)),
                ("capitol-mitch_hunter", s(1, 4)),
            ],
            &[],
            &[(Corporation::Capitol, CONVEY_MESSAGE)],
        );
        let bob = id(&g, "capitol-big_bob_watts");
        let mitch = id(&g, "capitol-mitch_hunter");
        let mut events = Vec::new();
        g.classic_secondary_turn_ended(0, &mut events);
        let seat = g.teams[0].seat;
        let mut dice = SeededDice::new(4);
        g.apply(
            seat,
            Command::Move {
                figure: mitch,
                path: vec![s(0, 4), s(-1, 4)].into(),
            },
            &mut dice,
        )
        .expect("exit by 1W");
        assert!(
            !g.classic_secondary_holds(0, CONVEY_MESSAGE),
            "the carrier stayed"
        );
        // The carrier falls: the message lies on its square (MSN-4) and an
        // adjacent DT may pick it up.
        g.drop_carried(bob, s(3, 8), &mut events);
        g.set_place(bob, Place::Eliminated);
        assert!(g.tokens.iter().any(|t| t.square == s(3, 8)));
        g.set_place(mitch, Place::Board { square: s(3, 9) });
        let pick_up = Command::PickUp {
            figure: mitch,
            token: MESSAGE.to_string(),
        };
        assert!(g.legal(seat).contains(&pick_up));
        g.apply(seat, pick_up, &mut dice).expect("pick up");
        assert!(g.carries_message(mitch));
    }

    #[test]
    fn csm_card_10_support_examination_is_a_holder_only_special_next_to_a_large_creature() {
        let s = Square::new;
        let mut g = m5(
            &[
                ("capitol-big_bob_watts", s(1, 4)),
                ("capitol-mitch_hunter", s(5, 5)),
                ("bauhaus-max_steiner", s(1, 2)),
            ],
            &[
                (CreatureKind::Razide, s(1, 3)),
                (CreatureKind::Centurion, s(5, 6)),
            ],
            &[(Corporation::Capitol, SUPPORT_EXAMINATION)],
        );
        let bob = id(&g, "capitol-big_bob_watts");
        let mitch = id(&g, "capitol-mitch_hunter");
        let seat = g.teams[0].seat;
        let mut dice = SeededDice::new(5);
        let examine = |figure| Command::Special {
            figure,
            action: EXAMINE.to_string(),
        };
        assert!(g.legal(seat).contains(&examine(bob)));
        assert!(
            !g.legal(seat).contains(&examine(mitch)),
            "a Centurion is no subject"
        );
        let before = serde_json::to_string(&g).expect("state");
        assert_eq!(
            g.apply(seat, examine(mitch), &mut dice).err(),
            Some(crate::game::Rejection::SpecialNotAvailable)
        );
        assert_eq!(
            serde_json::to_string(&g).expect("state"),
            before,
            "untouched"
        );
        g.apply(seat, examine(bob), &mut dice).expect("examine");
        assert_eq!(g.sec.proof[0].examined, vec![bob]);
        assert!(!g.legal(seat).contains(&examine(bob)), "once per DT");
        assert!(
            !g.classic_secondary_holds(0, SUPPORT_EXAMINATION),
            "not out yet"
        );
        // Mitch leaves by 1W without having examined: not enough.
        g.sec.proof[0].exited_white.push(mitch);
        assert!(!g.classic_secondary_holds(0, SUPPORT_EXAMINATION));
        g.apply(
            seat,
            Command::Move {
                figure: bob,
                path: vec![s(0, 4), s(-1, 4)].into(),
            },
            &mut dice,
        )
        .expect("exit by 1W");
        assert!(g.classic_secondary_holds(0, SUPPORT_EXAMINATION));
    }

    #[test]
    fn csm_card_10_the_examination_is_not_offered_to_other_teams() {
        let s = Square::new;
        let g = m5(
            &[("bauhaus-max_steiner", s(1, 4))],
            &[(CreatureKind::Razide, s(1, 3))],
            &[(Corporation::Capitol, SUPPORT_EXAMINATION)],
        );
        let steiner = id(&g, "bauhaus-max_steiner");
        assert!(!g.classic_special_ok(steiner, EXAMINE));
    }

    #[test]
    fn csm_card_2_capture_alien_specimen_the_team_walks_its_captive_out_by_a_white_entrance() {
        let s = Square::new;
        let mut g = m5(
            &[
                ("capitol-big_bob_watts", s(1, 4)),
                ("capitol-mitch_hunter", s(5, 5)),
            ],
            &[
                (CreatureKind::Centurion, s(2, 4)),
                (CreatureKind::Necromutant, s(5, 6)),
            ],
            &[(Corporation::Capitol, CAPTURE_ALIEN_SPECIMEN)],
        );
        let bob = id(&g, "capitol-big_bob_watts");
        let mitch = id(&g, "capitol-mitch_hunter");
        let centurion = g.figure_at(s(2, 4)).expect("centurion");
        let seat = g.teams[0].seat;
        let mut dice = SeededDice::new(6);
        let capture = |figure| Command::Special {
            figure,
            action: CAPTURE.to_string(),
        };
        assert!(g.legal(seat).contains(&capture(bob)));
        assert!(
            !g.legal(seat).contains(&capture(mitch)),
            "a Necromutant is no specimen"
        );
        g.apply(seat, capture(bob), &mut dice).expect("capture");
        assert_eq!(g.captor(centurion), Some((0, false)));
        assert!(!g.legal(seat).contains(&capture(bob)), "one captive");
        assert_eq!(
            g.view(Viewer::Spectator).figures[centurion.index()].captured_by,
            Some(0),
            "the capture is public"
        );
        assert!(
            !g.legal(seat)
                .iter()
                .any(|c| matches!(c, Command::Move { figure, .. } if *figure == centurion)),
            "not before the team's next turn"
        );
        // The team's next turn: the captive is its own, Moves only.
        let mut events = Vec::new();
        g.classic_secondary_turn_ended(0, &mut events);
        g.classic_secondary_turn_begun(0);
        assert_eq!(g.captive_of(0), Some(centurion));
        let legal = g.legal(seat);
        assert!(legal
            .iter()
            .any(|c| matches!(c, Command::Move { figure, .. } if *figure == centurion)));
        assert!(!legal.iter().any(|c| matches!(c,
            Command::Attack { figure, .. } | Command::Special { figure, .. } if *figure == centurion)));
        let before = serde_json::to_string(&g).expect("state");
        let attack = Command::Attack {
            figure: centurion,
            target: bob,
            attack: crate::content::AttackType::CloseCombat,
            barb_die: None,
        };
        assert_eq!(
            g.apply(seat, attack, &mut dice).err(),
            Some(crate::game::Rejection::AttackForbidden),
            "a captive cannot attack"
        );
        assert_eq!(
            serde_json::to_string(&g).expect("state"),
            before,
            "untouched"
        );
        // A red entrance does not do: only white ones are listed.
        let exit = vec![s(1, 3), s(0, 3), s(-1, 3)];
        assert!(g.legal(seat).contains(&Command::Move {
            figure: centurion,
            path: exit.clone().into()
        }));
        g.apply(
            seat,
            Command::Move {
                figure: centurion,
                path: exit.into(),
            },
            &mut dice,
        )
        .expect("out by 1W");
        assert_eq!(g.figures[centurion.index()].place, Place::Exited);
        assert!(g.classic_secondary_holds(0, CAPTURE_ALIEN_SPECIMEN));
        assert!(g.mission.exits.is_empty(), "no DT exit is recorded");
    }

    #[test]
    fn csm_card_2_an_eliminated_captive_fails_and_returns_to_the_dark_legion() {
        let s = Square::new;
        let mut g = m5(
            &[("capitol-big_bob_watts", s(1, 4))],
            &[
                (CreatureKind::Razide, s(2, 4)),
                (CreatureKind::Legionnaire, s(6, 6)),
            ],
            &[(Corporation::Capitol, CAPTURE_ALIEN_SPECIMEN)],
        );
        let bob = id(&g, "capitol-big_bob_watts");
        let razide = g.figure_at(s(2, 4)).expect("razide");
        let seat = g.teams[0].seat;
        g.apply(
            seat,
            Command::Special {
                figure: bob,
                action: CAPTURE.to_string(),
            },
            &mut SeededDice::new(7),
        )
        .expect("capture");
        // The Dark Legion no longer uses it.
        g.phase = Phase::DarkLegion {
            step: crate::game::state::DlStep::Activation,
        };
        g.prepare_dl_activation();
        let dl = g.dl.seat;
        let legal = g.legal(dl);
        let legionnaire = g.figure_at(s(6, 6)).expect("legionnaire");
        assert!(legal
            .iter()
            .any(|c| matches!(c, Command::Move { figure, .. } if *figure == legionnaire)));
        assert!(!legal.iter().any(|c| matches!(c, Command::Move { figure, .. } | Command::Attack { figure, .. } if *figure == razide)));
        // Eliminated: the card fails, and the figure is the Dark Legion's again.
        g.set_place(razide, Place::Reserve);
        assert_eq!(g.captor(razide), None);
        assert!(!g.classic_secondary_holds(0, CAPTURE_ALIEN_SPECIMEN));
    }

    #[test]
    fn csm_2_success_gives_the_team_2_credits_failure_the_dark_legion_1_and_no_pp() {
        let mut g = holder(MAP_THE_CITADEL);
        g.sec.kept[1] = Some(ATTACK_THE_CITADEL);
        for t in &mut g.tiles {
            t.marked = vec![0];
        }
        let pp: Vec<i32> = g.teams.iter().map(|t| t.pp).collect();
        let dl = g.dl.pp;
        let mut events = Vec::new();
        g.resolve_secondaries(&mut events);
        assert_eq!(
            g.credit_awards(),
            &[
                CreditAward {
                    team: 0,
                    side: Side::Team(0),
                    amount: 2,
                    reason: "secondary mission success".into()
                },
                CreditAward {
                    team: 1,
                    side: Side::DarkLegion,
                    amount: 1,
                    reason: "secondary mission failure".into()
                },
            ]
        );
        assert_eq!(g.teams.iter().map(|t| t.pp).collect::<Vec<_>>(), pp);
        assert_eq!(g.dl.pp, dl);
        assert!(!events
            .iter()
            .any(|e| matches!(e, Event::PromotionPoints { .. })));
        let resolved: Vec<(u32, bool)> = events
            .iter()
            .filter_map(|e| match e {
                Event::SecondaryResolved { card, success, .. } => Some((*card, *success)),
                _ => None,
            })
            .collect();
        assert_eq!(
            resolved,
            vec![(MAP_THE_CITADEL, true), (ATTACK_THE_CITADEL, false)]
        );
    }
}

#[cfg(test)]
mod names {
    use super::ClassicSecondary;
    use crate::content::Content;

    #[test]
    fn csm_the_named_cards_are_the_numbers_of_the_classic_table() {
        let content = Content::embedded().expect("content");
        let numbers: Vec<u32> = content
            .classic
            .base
            .secondary
            .iter()
            .map(|s| s.number)
            .collect();
        let named: Vec<u32> = ClassicSecondary::ALL.iter().map(|c| c.number()).collect();
        assert_eq!(numbers, named);
        assert_eq!(ClassicSecondary::from_number(0), None);
        assert_eq!(ClassicSecondary::from_number(11), None);
    }
}
