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
//! The documents are JSON, in the store and here: each game's campaign
//! rules read them ([`CampaignKind`], found by the campaign's kind).

use crate::campaign_kind::CampaignKind;
use crate::clock::wall_clock_ms;
use crate::codes;
use crate::error::ServerError;
use crate::table::Games;
use citadel_store::{CampaignMission, CampaignRecord, GameRecord, Store, StoreError};
use serde_json::Value;
use std::sync::Arc;

/// How many times a change is tried on a campaign that other writers keep
/// changing before it gives up with [`ServerError::Contended`].
pub const TRIES: usize = 10;

/// The campaigns in the store.
#[derive(Debug)]
pub struct CampaignLedger {
    store: Arc<dyn Store>,
    /// The games, for each campaign's rules by its kind.
    games: Games,
}

/// Which campaign: by invite code (the API) or by id (a game's).
#[derive(Clone, Copy, Debug)]
enum Key<'a> {
    Code(&'a str),
    Id(&'a str),
}

/// A campaign as loaded: the store's row, its document and its game's
/// campaign rules.
#[derive(Debug)]
pub struct Loaded {
    /// The row (id, code, name, times, and the version it was read at).
    pub record: CampaignRecord,
    /// The document (the rules' JSON).
    pub doc: Value,
    /// The campaign rules of its game.
    pub rules: Arc<dyn CampaignKind>,
    /// History rows of results applied to `doc` since it was read, stored
    /// just before the document.
    history: Vec<CampaignMission>,
}

impl Loaded {
    /// The document as the rules' own type `D` (tools and tests that
    /// know the game).
    ///
    /// # Errors
    /// A document that is not a `D`.
    pub fn typed<D: serde::de::DeserializeOwned>(&self) -> Result<D, ServerError> {
        serde_json::from_value(self.doc.clone())
            .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign document: {e}")))
    }

    /// Change the document as the rules' own type `D`; it is written back
    /// only if `change` succeeds.
    ///
    /// # Errors
    /// A document that is not a `D`, and `change`'s errors.
    pub fn edit<D: serde::Serialize + serde::de::DeserializeOwned, T>(
        &mut self,
        change: impl FnOnce(&mut D) -> Result<T, ServerError>,
    ) -> Result<T, ServerError> {
        let mut doc: D = self.typed()?;
        let out = change(&mut doc)?;
        self.doc = serde_json::to_value(&doc)
            .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign document: {e}")))?;
        Ok(out)
    }
}

impl CampaignLedger {
    /// The campaigns of `store`, of `games`.
    pub fn new(store: Arc<dyn Store>, games: Games) -> Self {
        CampaignLedger { store, games }
    }

    /// The campaign rules of the game `kind`.
    ///
    /// # Errors
    /// [`ServerError::BadRequest`]: the server has no such game, or it has
    /// no campaigns.
    pub fn rules_of(&self, kind: &str) -> Result<Arc<dyn CampaignKind>, ServerError> {
        self.games.campaigns_of(kind).cloned().ok_or_else(|| {
            ServerError::BadRequest(format!("the game {kind} has no campaigns here"))
        })
    }

    /// The game a campaign request names, or the catalogue's first.
    pub fn kind_or_first<'a>(&'a self, kind: Option<&'a str>) -> &'a str {
        kind.or_else(|| self.games.first().map(|k| k.id()))
            .unwrap_or_default()
    }

    /// Store a new campaign of the game `kind`, named `name`, under a
    /// fresh invite code (a taken code is tried again). Returns the
    /// stored row.
    ///
    /// # Errors
    /// A store failure, or no free code after a few tries.
    pub async fn create(
        &self,
        id: String,
        kind: &str,
        name: &str,
        doc: &Value,
    ) -> Result<CampaignRecord, ServerError> {
        let state = serde_json::to_string(doc).map_err(|e| ServerError::Internal(e.into()))?;
        for _ in 0..8 {
            let record = CampaignRecord {
                id: id.clone(),
                code: codes::random_code(&mut rand::thread_rng()),
                name: name.to_string(),
                state: state.clone(),
                created_at: wall_clock_ms(),
                finished_at: None,
                version: 0,
                kind: kind.to_string(),
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
            rules: self.rules_of(&record.kind).map_err(|_| {
                ServerError::Internal(anyhow::anyhow!(
                    "campaign {} is of {}, which this server does not play",
                    record.id,
                    record.kind
                ))
            })?,
            record,
            history: Vec::new(),
        };
        let mut caught_up = false;
        if let Some(game) = loaded.rules.in_play(&loaded.doc)? {
            match self.store.game(&game).await? {
                // Nobody played the mission: the campaign may go on
                // with another.
                Some(g)
                    if g.abandoned_at.is_some()
                        && loaded.rules.abandoned(&mut loaded.doc, &game)? =>
                {
                    caught_up = true;
                }
                Some(GameRecord {
                    result: Some(text), ..
                }) => {
                    let result = parse_result(&game, &text)?;
                    caught_up = apply(&mut loaded, &game, &result)?;
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
        if loaded.rules.is_finished(&loaded.doc)? && record.finished_at.is_none() {
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
    pub async fn game_finished(
        &self,
        campaign: &str,
        game: &str,
        summary: &citadel_protocol::Json,
    ) {
        let result: Value = match summary.parse() {
            Ok(result) => result,
            Err(e) => {
                tracing::error!(campaign, game, error = %e, "a campaign game's summary is not JSON");
                return;
            }
        };
        let done = self
            .change(Key::Id(campaign), |loaded| {
                Ok(((), apply(loaded, game, &result)?))
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

/// Apply a finished game's stored result to its campaign's document, and
/// keep the history row the rules make of it to store with it.
/// Idempotent: a result already applied (the game is no longer the
/// campaign's game in play) is skipped, and false returned.
fn apply(loaded: &mut Loaded, game: &str, result: &Value) -> Result<bool, ServerError> {
    if loaded.rules.in_play(&loaded.doc)?.as_deref() != Some(game) {
        return Ok(false);
    }
    // A game closed because it does not replay on these rules has no
    // result (crate::outcome::Outdated): like an abandoned game it frees
    // the campaign and changes nothing else.
    if result.get("outdated").is_some() {
        return loaded.rules.abandoned(&mut loaded.doc, game);
    }
    let Some(recorded) = loaded.rules.apply_result(&mut loaded.doc, game, result)? else {
        return Ok(false);
    };
    loaded.history.push(CampaignMission {
        campaign: loaded.record.id.clone(),
        index: i64::from(recorded.index),
        game: game.to_string(),
        summary: serde_json::to_string(&recorded.row)
            .map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?,
        at: wall_clock_ms(),
    });
    Ok(true)
}

fn parse_doc(record: &CampaignRecord) -> Result<Value, ServerError> {
    serde_json::from_str(&record.state)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign {}: {e}", record.id)))
}

fn parse_result(game: &str, text: &str) -> Result<Value, ServerError> {
    serde_json::from_str(text)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("result of {game}: {e}")))
}
