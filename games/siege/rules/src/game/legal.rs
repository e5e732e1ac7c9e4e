//! `Game::legal`: every command a seat may send now, so clients and bots
//! never guess. Moves are listed once per reachable end square, with one
//! shortest legal path; `apply` accepts any legal path.

use super::command::{CardPlay, Command};
use super::ids::{Seat, Side};
use super::state::{Activation, Game, Phase};

impl Game {
    /// The commands `seat` may send now. Empty when it is not the seat's
    /// turn (except `SetAllowPass`, always allowed to a team, not listed).
    pub fn legal(&self, seat: Seat) -> Vec<Command> {
        let mut out = self.legal_choices(seat);
        // Last, so "the first legal option" (CONV-8) stays a real choice.
        if !out.is_empty() && self.can_reveal_ai_card(seat) {
            out.push(Command::RevealAiCard);
        }
        out
    }

    fn legal_choices(&self, seat: Seat) -> Vec<Command> {
        let mut out = Vec::new();
        if self.phase == Phase::Finished {
            return out;
        }
        if let Some(p) = self.pending.front() {
            if p.seat == seat {
                out = self.decision_options(&p.decision);
            }
            return out;
        }
        match &self.phase {
            Phase::Equipment { order, next } => {
                let team = order[*next];
                if self.teams[usize::from(team)].seat == seat {
                    out = self.pick_options(team);
                    out.push(Command::PassEquipment);
                }
            }
            Phase::Corporation { team } => {
                let t = &self.teams[usize::from(*team)];
                if t.seat != seat {
                    return out;
                }
                // Room for the usual options: a random 1993 playout lists
                // about a hundred (the figures' moves and attacks), so the
                // list is not copied as it grows.
                out.reserve(256);
                for f in t.figures {
                    self.figure_commands(f, &mut out);
                }
                // A captive (classic CSM card 2): its Moves only.
                if let Some(captive) = self.captive_of(*team) {
                    let mut own = Vec::new();
                    self.figure_commands(captive, &mut own);
                    out.extend(
                        own.into_iter()
                            .filter(|c| matches!(c, Command::Move { .. })),
                    );
                }
                if !t.hand.is_empty() && !self.card_played && !self.effects.no_cards.contains(team)
                {
                    for f in t.figures {
                        let fig = &self.figures[f.index()];
                        if fig.in_play()
                            && fig.turn.activation != Activation::Done
                            && fig.turn.allowed < 4
                        {
                            for card in 0..t.hand.len() {
                                out.push(Command::PlayCard {
                                    card,
                                    figure: f,
                                    play: CardPlay::ExtraAction,
                                });
                            }
                        }
                    }
                }
                // Classic CDT-1: a 1993 card between actions.
                out.extend(self.two_use_plays(*team));
                if self.active.is_some() {
                    out.push(Command::EndActivation);
                }
                out.push(Command::EndTurn);
            }
            Phase::DarkLegion { .. } => {
                if self.acting_side() != Some(Side::DarkLegion) || seat != self.dl.seat {
                    return out;
                }
                // Every creature that may act lists its moves: often
                // hundreds of commands, so room for them up front.
                out.reserve(512);
                for f in &self.figures {
                    if f.creature().is_some() && f.in_play() && self.captor(f.id).is_none() {
                        self.figure_commands(f.id, &mut out);
                    }
                }
                if self.active.is_some() {
                    out.push(Command::EndActivation);
                }
                out.push(Command::EndTurn);
            }
            Phase::Finished => {}
        }
        out
    }
}
