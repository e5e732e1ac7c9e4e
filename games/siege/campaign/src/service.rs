//! Siege's campaigns on the platform's campaign service
//! ([`citadel_game::CampaignRules`]): the request bodies, the next
//! mission's game, the history rows and the standings, over the rules of
//! [`crate::rules`]. The JSON of every body and answer is what the
//! campaign API spoke before the seam (docs/PROTOCOL.md, "Campaigns").

use crate::rules::{
    all_mission_ids, sequence, CampaignChoice, CampaignDoc, CampaignEnd, CampaignError,
    CampaignTerms, CurrentGame, DarkLegionMode, HistoryEntry, DEFAULT_TARGET_PP,
};
use citadel_game::{CampaignRefusal, CampaignRules, Member, NextGame, Recorded, ReservedPlayer};
use citadel_rules::content::Corporation;
use citadel_rules::documents::brief::{brief, MissionBrief};
use citadel_rules::game::Game as SiegeGame;
use citadel_rules::seam::{mission_playable, DarkLegionChoice, SeatChoice, SiegeOptions};
use citadel_rules::summary::GameSummary;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Siege's campaign rules (core §14 CMP, classic CMP/CEC/CDL).
#[derive(Clone, Copy, Debug, Default)]
pub struct SiegeCampaigns;

/// `POST /api/campaigns`.
#[derive(Debug, Deserialize)]
pub struct CreateReq {
    name: String,
    players: u8,
    /// Campaign 1, 2, both, or the classic missions (CMP-1); both when
    /// absent.
    #[serde(default)]
    campaign: CampaignChoice,
    /// M; the length of the chosen sequence when absent (5, or 10 for
    /// both and for classic).
    #[serde(default)]
    missions: Option<u32>,
    #[serde(default = "one")]
    starting_rank: u8,
    dark_legion: DarkLegionMode,
    /// After M missions (default), or classic "first to T PP".
    #[serde(default)]
    end: CampaignEnd,
    /// T of "first to T"; 130 when absent.
    #[serde(default)]
    target_pp: Option<i32>,
    /// Classic: choose each mission freely (CMP-5).
    #[serde(default)]
    free_choice: bool,
}

fn one() -> u8 {
    1
}

/// `POST /api/campaigns/{code}/join` (besides the name): the corporation
/// the player keeps for the whole campaign (CMP-1).
#[derive(Debug, Deserialize)]
pub struct JoinReq {
    corporation: Corporation,
}

/// `POST /api/campaigns/{code}/next`: with classic free choice (CMP-5),
/// the mission to play.
#[derive(Debug, Default, Deserialize)]
pub struct NextReq {
    #[serde(default)]
    mission: Option<String>,
}

/// `POST /api/campaigns/{code}/next`: the mission's game, made with
/// every player's seat reserved.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignNextGame"))]
pub struct NextGameAnswer {
    game: String,
    mission: String,
    /// The DL player's index; `null` with the AI.
    dark_legion: Option<usize>,
}

/// `POST /api/campaigns/{code}/credit`: the buyer's standing after it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignCreditBought"))]
pub struct CreditBought {
    /// The buyer's index.
    player: usize,
    /// PP after paying 5.
    pp: i32,
    /// Rank from those PP (CRK-1): the rank the mission starts with.
    rank: u8,
    /// Credits after.
    credits: i32,
}

/// One player's standing after a mission, as the history row keeps it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Standing {
    /// Shown name.
    pub name: String,
    /// PP after the mission.
    pub pp: i32,
    /// Missions played as the Dark Legion so far.
    pub times_dl: u32,
    /// Classic credits after the mission (CEC-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credits: Option<i32>,
}

/// What a campaign's history row (the store's `CampaignMission.summary`)
/// holds.
#[derive(Debug, Serialize, Deserialize)]
pub struct MissionRow {
    /// The mission's history entry.
    pub entry: HistoryEntry,
    /// Every player's standing after it.
    pub standings: Vec<Standing>,
    /// The AI Dark Legion's PP after it (AI campaigns).
    pub ai_pp: Option<i32>,
}

impl From<CampaignError> for CampaignRefusal {
    fn from(e: CampaignError) -> Self {
        match e {
            CampaignError::Invalid(m) => CampaignRefusal::Invalid(m),
            CampaignError::Conflict(m) => CampaignRefusal::Conflict(m),
            // CEC-4's refusals fit the campaign's state, not the request's
            // form: a conflict, with the reason in words.
            e @ (CampaignError::NotEnoughPp { .. }
            | CampaignError::CreditAlreadyBought
            | CampaignError::NoCredits) => CampaignRefusal::Conflict(e.to_string()),
        }
    }
}

fn to_json<T: Serialize>(value: &T) -> serde_json::Value {
    // Every type serialized here is plain data (no maps with non-string
    // keys), so this cannot fail; Null would only hide a bug.
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

impl CampaignRules for SiegeCampaigns {
    type Game = SiegeGame;
    type Doc = CampaignDoc;
    type Terms = CreateReq;
    type Join = JoinReq;
    type Next = NextReq;

    fn create(req: CreateReq) -> Result<CampaignDoc, CampaignRefusal> {
        let seq = sequence(req.campaign, &all_mission_ids());
        if seq.is_empty() {
            return Err(CampaignRefusal::Invalid(
                "there is no mission record for that campaign".into(),
            ));
        }
        // Each form has its own length: say which rather than ignore a field.
        if req.target_pp.is_some() && req.end != CampaignEnd::FirstTo {
            return Err(CampaignRefusal::Invalid(
                "target_pp goes with \"end\": \"first_to\"".into(),
            ));
        }
        if req.missions.is_some() && req.end == CampaignEnd::FirstTo {
            return Err(CampaignRefusal::Invalid(
                "a \"first_to\" campaign has no number of missions".into(),
            ));
        }
        Ok(CampaignDoc::create_with(&CampaignTerms {
            name: req.name,
            players: req.players,
            missions: req.missions.unwrap_or(seq.len() as u32),
            starting_rank: req.starting_rank,
            dark_legion: req.dark_legion,
            campaign: req.campaign,
            end: req.end,
            target_pp: req.target_pp.unwrap_or(DEFAULT_TARGET_PP),
            free_choice: req.free_choice,
        })?)
    }

    fn name(doc: &CampaignDoc) -> &str {
        &doc.name
    }

    fn join(
        doc: &mut CampaignDoc,
        member: Member,
        join: JoinReq,
    ) -> Result<usize, CampaignRefusal> {
        Ok(doc.join(
            &member.name,
            join.corporation,
            member.token_hash,
            member.account,
        )?)
    }

    fn player_by_token_hash(doc: &CampaignDoc, hash: &str) -> Option<usize> {
        doc.player_by_token_hash(hash)
    }

    fn next(
        doc: &CampaignDoc,
        req: NextReq,
        entropy: u64,
    ) -> Result<NextGame<SiegeGame>, CampaignRefusal> {
        doc.can_start_next()?;
        // CMP-5: the listed mission, whatever the earlier outcomes. A
        // mission the engine cannot play yet is not replaced by another:
        // the campaign waits, and says what the mission needs.
        let ids = all_mission_ids();
        let Some(listed) = doc.next_mission(&ids).map(str::to_string) else {
            return Err(CampaignRefusal::Conflict(
                "the campaign has no mission left to play".into(),
            ));
        };
        // With free choice (classic CMP-5) the body may name any of the
        // campaign's missions; else it must be the listed one.
        let mission = match req.mission {
            Some(asked) if doc.may_play(&asked, &ids) => asked,
            Some(asked) if doc.free_choice => {
                return Err(CampaignRefusal::Conflict(format!(
                    "{asked} is not one of this campaign's missions"
                )))
            }
            Some(asked) => {
                return Err(CampaignRefusal::Conflict(format!(
                    "missions run in order (CMP-5): the next mission is {listed}, not {asked}"
                )))
            }
            None => listed,
        };
        mission_playable(&mission).map_err(|e| CampaignRefusal::Conflict(e.message))?;
        let mut rng = StdRng::seed_from_u64(entropy);
        let dl = doc.choose_dl(&mut rng);
        let seed = rng.gen::<u64>();
        let setup = doc.setup_for_next(&mission, dl, seed);
        let options = SiegeOptions {
            mission,
            seats: doc.players.len() as u8,
            dark_legion: match dl {
                Some(d) => DarkLegionChoice::Seat(d as u8),
                None => DarkLegionChoice::Ai,
            },
            starting_rank: doc.starting_rank,
        };
        let seats = doc
            .players
            .iter()
            .map(|p| ReservedPlayer {
                member: Member {
                    name: p.name.clone(),
                    token_hash: p.token_hash.clone(),
                    account: p.account.clone(),
                },
                choice: Some(SeatChoice {
                    corporation: Some(p.corporation),
                    doomtroopers: None,
                }),
            })
            .collect();
        Ok(NextGame {
            options,
            setup,
            seed,
            seats,
        })
    }

    fn begin(doc: &mut CampaignDoc, game: &str, next: &NextGame<SiegeGame>) -> serde_json::Value {
        let (mission, dark_legion) = (next.setup.mission.clone(), next.options.dark_legion);
        let dl = match dark_legion {
            DarkLegionChoice::Seat(s) => Some(usize::from(s)),
            _ => None,
        };
        doc.begin(game, &mission, dl);
        to_json(&NextGameAnswer {
            game: game.to_string(),
            mission,
            dark_legion: dl,
        })
    }

    fn in_play(doc: &CampaignDoc) -> Option<&str> {
        doc.current.as_ref().map(|c| c.game.as_str())
    }

    fn abandoned(doc: &mut CampaignDoc, game: &str) -> bool {
        doc.mission_abandoned(game)
    }

    fn apply_result(
        doc: &mut CampaignDoc,
        game: &str,
        summary: &GameSummary,
    ) -> Result<Option<Recorded>, CampaignRefusal> {
        if Self::in_play(doc) != Some(game) {
            return Ok(None);
        }
        let entry = doc.apply_result(game, summary)?;
        let row = MissionRow {
            standings: doc
                .players
                .iter()
                .map(|p| Standing {
                    name: p.name.clone(),
                    pp: p.pp,
                    times_dl: p.times_dl,
                    credits: doc.is_classic().then_some(p.credits),
                })
                .collect(),
            ai_pp: doc.ai_pp,
            entry,
        };
        Ok(Some(Recorded {
            index: row.entry.index,
            row: to_json(&row),
        }))
    }

    fn is_finished(doc: &CampaignDoc) -> bool {
        doc.finished
    }

    fn act(
        doc: &mut CampaignDoc,
        player: usize,
        action: &str,
        _body: &serde_json::Value,
    ) -> Option<Result<serde_json::Value, CampaignRefusal>> {
        match action {
            // CEC-4: the player converts 5 PP into 1 credit before the
            // next mission starts, once per mission.
            "credit" => Some(
                doc.buy_credit(player)
                    .map_err(CampaignRefusal::from)
                    .map(|()| {
                        let p = &doc.players[player];
                        to_json(&CreditBought {
                            player,
                            pp: p.pp,
                            rank: doc.rank_of(p.pp),
                            credits: p.credits,
                        })
                    }),
            ),
            _ => None,
        }
    }

    fn standings(doc: &CampaignDoc, id: &str, code: &str) -> serde_json::Value {
        to_json(&standings(doc, id, code))
    }
}

/// One player in the standings.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignPlayerView"))]
struct PlayerView {
    player: usize,
    name: String,
    corporation: Corporation,
    pp: i32,
    /// In the campaign's edition (RNK-1, CRK-1).
    rank: u8,
    times_dl: u32,
    /// Classic credits (CEC-1); `null` in CE campaigns.
    credits: Option<i32>,
    /// Bought a credit for the next mission (CEC-4).
    credit_bought: bool,
}

/// The AI Dark Legion in the standings (AI campaigns).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignAiView"))]
struct AiView {
    pp: i32,
    rank: u8,
}

/// One mission of the campaign's order.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignOrderEntry"))]
struct OrderEntry {
    /// Mission number in the campaign, from 0.
    index: usize,
    /// Mission id.
    mission: String,
    /// Its name.
    name: String,
    /// The engine can play it.
    playable: bool,
}

/// The mission to play next: its number, and its briefing (with
/// `playable` and `missing`).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignNextMission"))]
struct NextMission<'a> {
    /// Mission number in the campaign, from 0.
    index: usize,
    #[serde(flatten)]
    brief: MissionBrief<'a>,
}

/// A finished mission's outcome (CMP-3; C2M5 reads C2M4's, D40).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "MissionOutcome"))]
struct Outcome {
    mission: String,
    completed: bool,
}

/// `GET /api/campaigns/{code}` (the platform adds the game's `kind`).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignStandings"))]
pub struct Standings<'a> {
    id: String,
    code: String,
    name: String,
    players_planned: u8,
    missions: u32,
    starting_rank: u8,
    dark_legion: DarkLegionMode,
    campaign: CampaignChoice,
    /// `"ce"` or `"classic"`.
    #[cfg_attr(feature = "ts", ts(type = "\"ce\" | \"classic\""))]
    edition: &'static str,
    /// How it ends (CMP-6).
    end: CampaignEnd,
    /// T of a "first to T" campaign.
    target_pp: Option<i32>,
    /// Classic: missions chosen freely (CMP-5).
    free_choice: bool,
    /// Classic: the DL band the next mission starts with (CDL-1), as the
    /// lower rank of its pair (1, 3 or 5); `null` in CE campaigns.
    next_band: Option<u8>,
    /// The missions in play order (CMP-5): all M; in a "first to T"
    /// campaign the played ones and the next round of the sequence.
    order: Vec<OrderEntry>,
    /// Classic free choice (CMP-5): the missions `next` may name (any of
    /// them, replays allowed; `index` is the position in this list). Empty
    /// otherwise.
    choices: Vec<OrderEntry>,
    players: Vec<PlayerView>,
    ai: Option<AiView>,
    history: Vec<HistoryEntry>,
    outcomes: Vec<Outcome>,
    current_game: Option<CurrentGame>,
    /// `null` while a mission is in play and when the campaign is finished.
    next_mission: Option<NextMission<'a>>,
    finished: bool,
    winners: Vec<usize>,
    ai_wins: bool,
}

fn standings(doc: &CampaignDoc, id: &str, code: &str) -> Standings<'static> {
    let content = citadel_rules::Content::embedded().ok();
    let ids = all_mission_ids();
    let shown = match doc.end {
        CampaignEnd::Missions => doc.missions as usize,
        CampaignEnd::FirstTo => doc.history.len() + sequence(doc.campaign, &ids).len(),
    };
    let entries = |list: &[&str]| -> Vec<OrderEntry> {
        list.iter()
            .enumerate()
            .filter_map(|(index, id)| {
                let m = content?.mission(id)?;
                Some(OrderEntry {
                    index,
                    mission: m.id.clone(),
                    name: m.name.clone(),
                    playable: citadel_rules::game::playable::is_playable(m),
                })
            })
            .collect()
    };
    let listed = doc.order(&ids);
    let order = entries(&listed[..shown.min(listed.len())]);
    // The client offers these without knowing the rules of choice.
    let choices = if doc.free_choice && !doc.finished {
        entries(&sequence(doc.campaign, &ids))
    } else {
        Vec::new()
    };
    let next_mission = doc
        .current
        .is_none()
        .then(|| doc.next_mission(&ids))
        .flatten()
        .and_then(|id| content?.mission(id))
        .map(|m| NextMission {
            index: doc.history.len(),
            brief: brief(m),
        });
    let outcomes = doc
        .outcomes()
        .into_iter()
        .map(|(mission, completed)| Outcome { mission, completed })
        .collect();
    let players = doc
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| PlayerView {
            player: i,
            name: p.name.clone(),
            corporation: p.corporation,
            pp: p.pp,
            rank: doc.rank_of(p.pp),
            times_dl: p.times_dl,
            credits: doc.is_classic().then_some(p.credits),
            credit_bought: doc.credit_bought(i),
        })
        .collect();
    let ai = doc.ai_pp.map(|pp| AiView {
        pp,
        rank: doc.rank_of(pp),
    });
    Standings {
        id: id.to_string(),
        code: code.to_string(),
        name: doc.name.clone(),
        players_planned: doc.planned_players,
        missions: doc.missions,
        starting_rank: doc.starting_rank,
        dark_legion: doc.dark_legion,
        campaign: doc.campaign,
        edition: if doc.is_classic() { "classic" } else { "ce" },
        end: doc.end,
        target_pp: doc.target_pp,
        free_choice: doc.free_choice,
        next_band: doc.next_band(),
        order,
        choices,
        players,
        ai,
        history: doc.history.clone(),
        outcomes,
        current_game: doc.current.clone(),
        next_mission,
        finished: doc.finished,
        winners: doc.winners.clone(),
        ai_wins: doc.ai_wins,
    }
}
