//! Stored campaigns: loading and saving campaign documents, and applying
//! a finished (or abandoned) mission game to its campaign. Used by the campaign HTTP API
//! ([`crate::campaign_api`]) and by a campaign game's task; it knows
//! neither (no HTTP, no game registry), so neither depends on the other
//! through it.
//!
//! Every change of a campaign document is a read-modify-write with
//! optimistic concurrency, so concurrent joins, a `next` and a finishing
//! game never lose each other's writes, also when they run on different
//! nodes over one database: the campaign is read with its version, the
//! change is applied to the document, and the store writes it only over
//! that version ([`Store::update_campaign`]). A write that finds the row
//! moved on writes nothing; the ledger reads the campaign again and redoes
//! the change, up to [`TRIES`] times ([`ServerError::Contended`] after).
//! The documents are JSON in the store; here they are [`CampaignDoc`]s.

use crate::campaign_rules::{CampaignDoc, HistoryEntry};
use crate::clock::wall_clock_ms;
use crate::codes;
use crate::error::ServerError;
use crate::outcome::GameSummary;
use citadel_store::{CampaignMission, CampaignRecord, GameRecord, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How many times a change is tried on a campaign that other writers keep
/// changing before it gives up with [`ServerError::Contended`].
pub const TRIES: usize = 10;

/// The campaigns in the store.
#[derive(Debug)]
pub struct CampaignLedger {
    store: Arc<dyn Store>,
}

/// Which campaign: by invite code (the API) or by id (a game's).
#[derive(Clone, Copy, Debug)]
enum Key<'a> {
    Code(&'a str),
    Id(&'a str),
}

/// A campaign as loaded: the store's row and its document.
#[derive(Debug)]
pub struct Loaded {
    /// The row (id, code, name, times, and the version it was read at).
    pub record: CampaignRecord,
    /// The document.
    pub doc: CampaignDoc,
    /// History rows of results applied to `doc` since it was read, stored
    /// just before the document.
    history: Vec<CampaignMission>,
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

/// What a campaign's history row (`CampaignMission.summary`) holds.
#[derive(Debug, Serialize, Deserialize)]
pub struct MissionRow {
    /// The mission's history entry.
    pub entry: HistoryEntry,
    /// Every player's standing after it.
    pub standings: Vec<Standing>,
    /// The AI Dark Legion's PP after it (AI campaigns).
    pub ai_pp: Option<i32>,
}

impl CampaignLedger {
    /// The campaigns of `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        CampaignLedger { store }
    }

    /// Store a new campaign under a fresh invite code (a taken code is
    /// tried again). Returns the stored row.
    ///
    /// # Errors
    /// A store failure, or no free code after a few tries.
    pub async fn create(
        &self,
        id: String,
        doc: &CampaignDoc,
    ) -> Result<CampaignRecord, ServerError> {
        let state = serde_json::to_string(doc).map_err(|e| ServerError::Internal(e.into()))?;
        for _ in 0..8 {
            let record = CampaignRecord {
                id: id.clone(),
                code: codes::random_code(&mut rand::thread_rng()),
                name: doc.name.clone(),
                state: state.clone(),
                created_at: wall_clock_ms(),
                finished_at: None,
                version: 0,
            };
            match self.store.create_campaign(&record).await {
                Ok(()) => return Ok(record),
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServerError::Internal(anyhow::anyhow!(
            "no free campaign code"
        )))
    }

    /// Load a campaign by invite code, with a finished-but-unapplied
    /// mission applied (and stored) first: a restart, or a crash of
    /// another node, between storing the game's end and the campaign's
    /// update.
    ///
    /// # Errors
    /// [`ServerError::NoCampaign`], a store failure, a document that does
    /// not parse, or [`ServerError::Contended`].
    pub async fn load(&self, code: &str) -> Result<Loaded, ServerError> {
        let code = codes::normalize(code);
        let (loaded, ()) = self.change(Key::Code(&code), |_| Ok(((), false))).await?;
        Ok(loaded)
    }

    /// Change a campaign (by invite code) and store it: `change` is
    /// applied to the campaign as loaded ([`Self::load`]); if another
    /// writer stored the campaign meanwhile, it is loaded again and
    /// `change` applied again, so `change` must only change the
    /// [`Loaded`] it is given. An error from `change` is returned with
    /// nothing stored.
    ///
    /// # Errors
    /// As [`Self::load`], and `change`'s errors.
    pub async fn update<T>(
        &self,
        code: &str,
        mut change: impl FnMut(&mut Loaded) -> Result<T, ServerError>,
    ) -> Result<(Loaded, T), ServerError> {
        let code = codes::normalize(code);
        self.change(Key::Code(&code), |loaded| Ok((change(loaded)?, true)))
            .await
    }

    /// Store a campaign changed since [`Self::load`] if nobody else stored
    /// it meanwhile: `Ok(true)` if stored, `Ok(false)` (nothing stored) if
    /// it moved on; then load it again and decide again. For a change
    /// that does more than change the document ([`Self::update`] for the
    /// others).
    ///
    /// # Errors
    /// A store failure.
    pub async fn save(&self, loaded: &mut Loaded) -> Result<bool, ServerError> {
        self.write(loaded).await
    }

    /// Read, change, write over the version read; again on a conflict.
    /// `change` says whether it changed anything (else only a caught-up
    /// result is written).
    async fn change<T>(
        &self,
        key: Key<'_>,
        mut change: impl FnMut(&mut Loaded) -> Result<(T, bool), ServerError>,
    ) -> Result<(Loaded, T), ServerError> {
        for attempt in 0..TRIES {
            let (mut loaded, caught_up) = self.read(key).await?;
            let (out, changed) = change(&mut loaded)?;
            if !(caught_up || changed) || self.write(&mut loaded).await? {
                return Ok((loaded, out));
            }
            back_off(attempt).await;
        }
        Err(ServerError::Contended)
    }

    /// Read a campaign and apply (in memory) a finished mission not yet
    /// applied; true if one was.
    async fn read(&self, key: Key<'_>) -> Result<(Loaded, bool), ServerError> {
        let record = match key {
            Key::Code(code) => self.store.campaign_by_code(code).await?,
            Key::Id(id) => self.store.campaign(id).await?,
        }
        .ok_or(ServerError::NoCampaign)?;
        let mut loaded = Loaded {
            doc: parse_doc(&record)?,
            record,
            history: Vec::new(),
        };
        let mut caught_up = false;
        if let Some(current) = loaded.doc.current.clone() {
            match self.store.game(&current.game).await? {
                // Nobody played the mission: the campaign may go on
                // with another.
                Some(g)
                    if g.abandoned_at.is_some() && loaded.doc.mission_abandoned(&current.game) =>
                {
                    caught_up = true;
                }
                Some(GameRecord {
                    result: Some(text), ..
                }) => {
                    let summary = parse_summary(&current.game, &text)?;
                    caught_up = apply(&mut loaded, &current.game, &summary)?;
                }
                _ => {}
            }
        }
        Ok((loaded, caught_up))
    }

    /// Store the history rows of applied results, then the document (and
    /// the finish time once finished) over the version it was read at.
    /// False, with the document not stored, if the campaign moved on.
    async fn write(&self, loaded: &mut Loaded) -> Result<bool, ServerError> {
        // History first: if the document write is lost (or refused as
        // stale), the next load applies the result again and the repeated
        // history row is a harmless conflict.
        for mission in loaded.history.drain(..) {
            match self.store.add_campaign_mission(&mission).await {
                Ok(()) | Err(StoreError::Conflict(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let mut record = loaded.record.clone();
        record.state = serde_json::to_string(&loaded.doc)
            .map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?;
        if loaded.doc.finished && record.finished_at.is_none() {
            record.finished_at = Some(wall_clock_ms());
        }
        match self.store.update_campaign(&record).await {
            Ok(()) => {
                record.version += 1;
                loaded.record = record;
                Ok(true)
            }
            Err(StoreError::Stale(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Record that an account is a member of a campaign.
    ///
    /// # Errors
    /// A store failure.
    pub async fn link_member(&self, campaign: &str, account: &str) -> Result<(), ServerError> {
        Ok(self.store.link_campaign_member(campaign, account).await?)
    }

    /// A campaign game finished and its end is stored: apply it to the
    /// campaign before the players hear of it, so their `mission_ended`
    /// arrives with the standings already stored. A failure is logged:
    /// the game's end is stored, and the next load of the campaign
    /// applies it.
    pub async fn game_finished(&self, campaign: &str, game: &str, summary: &GameSummary) {
        let done = self
            .change(Key::Id(campaign), |loaded| {
                Ok(((), apply(loaded, game, summary)?))
            })
            .await;
        if let Err(e) = done {
            tracing::error!(campaign, game, error = %e, "cannot apply a mission to its campaign");
        }
    }
}

/// After the `attempt`th write (from 0) found the campaign changed: wait a
/// random while, growing with the attempts (up to 64 ms), so that writers
/// that keep colliding spread out.
pub async fn back_off(attempt: usize) {
    let most = 1u64 << attempt.min(6);
    let ms = rand::Rng::gen_range(&mut rand::thread_rng(), 0..=most);
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}

/// CMP-3/CMP-4/CMP-6: apply a finished mission's result to the campaign
/// document, and keep its history row to store with it. Idempotent: a
/// result already applied (the game is no longer the mission in play) is
/// skipped, and false returned.
fn apply(loaded: &mut Loaded, game: &str, summary: &GameSummary) -> Result<bool, ServerError> {
    let doc = &mut loaded.doc;
    if doc.current.as_ref().map(|c| c.game.as_str()) != Some(game) {
        return Ok(false);
    }
    // A game closed because it does not replay on these rules has no
    // result (no PP, no teams): like an abandoned mission it frees the
    // campaign and changes nothing else, rather than reading its empty
    // PP as everyone's new totals.
    if summary.outdated.is_some() {
        return Ok(doc.mission_abandoned(game));
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
    loaded.history.push(CampaignMission {
        campaign: loaded.record.id.clone(),
        index: i64::from(row.entry.index),
        game: game.to_string(),
        summary: serde_json::to_string(&row)
            .map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?,
        at: wall_clock_ms(),
    });
    Ok(true)
}

fn parse_doc(record: &CampaignRecord) -> Result<CampaignDoc, ServerError> {
    serde_json::from_str(&record.state)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign {}: {e}", record.id)))
}

fn parse_summary(game: &str, text: &str) -> Result<GameSummary, ServerError> {
    serde_json::from_str(text)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("result of {game}: {e}")))
}
