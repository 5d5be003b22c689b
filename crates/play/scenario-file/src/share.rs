//! Share links (DESIGN §4.3): `…/#s=1.<base64url(raw DEFLATE(minified JSON))>[&t=<seconds>]`.
//!
//! The JSON is the scenario file's structure ([`crate::write::to_json`]) plus an optional
//! `view` object ([`ShareView`]). The leading number is the format version. Decoding accepts a
//! whole address, a `#s=…` fragment or the bare payload; it is bounded (at most
//! [`MAX_INFLATED`] bytes are ever inflated, node counts and string lengths are capped), checks
//! every field, and turns every failure into a [`ShareError`] with a hint: it never panics.
//!
//! Knows nothing of the browser (the app reads and writes the address) or of the cluster.

use std::fmt;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use serde_json::{Map, Value};

use crate::format::{from_json, Scenario};
use crate::write::to_json;

/// The format this build writes and reads.
pub const VERSION: u32 = 1;
/// The most bytes of JSON a link may inflate to.
pub const MAX_INFLATED: usize = 1 << 20;
/// The longest input `decode` looks at (a payload inflating to [`MAX_INFLATED`] is far shorter).
pub const MAX_INPUT: usize = 2 << 20;
/// The longest object key in a link's JSON (label keys are at most 317 characters).
pub const MAX_KEY_LEN: usize = 1024;
/// The longest string value in a link's JSON (a manifest under `files:`).
pub const MAX_STRING_LEN: usize = 256 * 1024;
/// The latest virtual time a link may open at (`t=`), in seconds: 30 days.
pub const MAX_TIME: f64 = 30.0 * 24.0 * 3600.0;
/// Links longer than this get a warning: chat apps and some browsers cut them.
pub const WARN_LENGTH: usize = 2_000;
/// Links longer than this are better shared as a scenario file.
pub const FILE_LENGTH: usize = 32 * 1024;

/// The source name a decoded scenario carries (and its errors start with).
pub const SOURCE_NAME: &str = "share link";

/// base64url without padding; padding is accepted on input.
const B64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What the author was looking at; every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShareView {
    /// The selected panel (e.g. `events`, `chart`, `terminal`).
    pub panel: Option<String>,
    /// `light` or `dark`.
    pub theme: Option<String>,
    /// The lesson open in the page, and where the learner is in it.
    pub lesson: Option<ShareLesson>,
}

/// A lesson in a link (`view.lesson`): its id (the steps come from the build that opens the
/// link), the learner's progress, and how many steps' `run:` lines are already in the
/// scenario's script (the page plays each step's lines once). Links without it are older or
/// not lessons; builds that do not know it ignore it and open the scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShareLesson {
    pub id: String,
    pub progress: crate::lesson::LessonProgress,
    pub played: usize,
}

/// The most steps a link's lesson may count (lessons have a handful).
pub const MAX_LESSON_STEPS: u64 = 1_000;

/// A decoded link.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    pub scenario: Scenario,
    pub view: ShareView,
    /// Virtual seconds to open at (`&t=`).
    pub t: Option<f64>,
}

/// What is wrong with a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareErrorKind {
    /// No `s=` payload, or not of the form `<version>.<data>`.
    NotALink,
    /// A format this build does not read.
    UnknownVersion(String),
    /// The data is not base64url (changed or cut).
    Corrupt,
    /// It inflates to more than [`MAX_INFLATED`] bytes.
    TooLarge,
    /// The inflated data is not JSON of a scenario's shape (a string or key too long, too deep).
    BadData,
    /// The scenario in it is invalid (the message names the field, e.g. `script[3]`).
    BadScenario,
    /// `t=` is not a time.
    BadTime,
}

/// A link that cannot be opened: what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ShareError {
    pub kind: ShareErrorKind,
    pub message: String,
    pub hint: String,
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  hint: {}", self.message, self.hint)
    }
}

const HINT_COPY_AGAIN: &str =
    "the link was changed or cut short on the way: copy the whole link again from where it was shared";

fn err(kind: ShareErrorKind, message: impl Into<String>, hint: impl Into<String>) -> ShareError {
    ShareError {
        kind,
        message: message.into(),
        hint: hint.into(),
    }
}

/// The JSON a link carries: the scenario's (without its `try:` suggestions), plus `view` when
/// it says anything.
pub fn to_link_json(scenario: &Scenario, view: &ShareView) -> Value {
    let mut v = to_json(scenario);
    // A link carries what the scenario does. `try:` is the preset page's first-visit aid, and
    // its sentences would cost a link some 150 characters.
    if let Value::Object(m) = &mut v {
        m.remove("try");
    }
    let mut m = Map::new();
    if let Some(p) = &view.panel {
        m.insert("panel".into(), Value::String(p.clone()));
    }
    if let Some(t) = &view.theme {
        m.insert("theme".into(), Value::String(t.clone()));
    }
    if let Some(l) = &view.lesson {
        let p = &l.progress;
        let mut o = Map::new();
        o.insert("id".into(), Value::String(l.id.clone()));
        o.insert("step".into(), p.step.into());
        if let Some(a) = p.answered {
            o.insert("answered".into(), a.into());
        }
        if p.done {
            o.insert("done".into(), true.into());
        }
        o.insert("played".into(), l.played.into());
        m.insert("lesson".into(), Value::Object(o));
    }
    if let (Value::Object(root), false) = (&mut v, m.is_empty()) {
        root.insert("view".into(), Value::Object(m));
    }
    v
}

/// The payload of a link: `1.<base64url(raw DEFLATE(minified JSON))>`.
pub fn encode(scenario: &Scenario, view: &ShareView) -> String {
    let json = to_link_json(scenario, view).to_string();
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("{VERSION}.{}", B64.encode(packed))
}

/// The address fragment: `#s=<payload>`, with `&t=<seconds>` when `t` is given.
pub fn fragment(scenario: &Scenario, view: &ShareView, t: Option<f64>) -> String {
    with_time(&encode(scenario, view), t)
}

/// `#s=<payload>[&t=<seconds>]`.
fn with_time(payload: &str, t: Option<f64>) -> String {
    let mut f = format!("#s={payload}");
    if let Some(t) = t.filter(|t| t.is_finite() && *t > 0.0) {
        f.push_str("&t=");
        f.push_str(&format_time(t));
    }
    f
}

/// [`fragment`] for one session saved again and again: the scenario and view are encoded
/// (JSON, DEFLATE, base64) again only when they changed, so saving every virtual second while
/// a 5,000-node cluster plays does not deflate all its nodes each time.
#[derive(Debug, Clone, Default)]
pub struct Fragments {
    last: Option<(Scenario, ShareView, String)>,
}

impl Fragments {
    /// The same text as [`fragment`].
    pub fn fragment(&mut self, scenario: &Scenario, view: &ShareView, t: Option<f64>) -> String {
        match &self.last {
            Some((s, v, payload)) if s == scenario && v == view => with_time(payload, t),
            _ => {
                let payload = encode(scenario, view);
                let f = with_time(&payload, t);
                self.last = Some((scenario.clone(), view.clone(), payload));
                f
            }
        }
    }
}

/// Seconds to the millisecond, without trailing zeros: `12.5`, `30`.
pub fn format_time(t: f64) -> String {
    let s = format!("{:.3}", t.clamp(0.0, MAX_TIME));
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Why a link of `len` characters may not travel well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkWarning {
    /// Over [`WARN_LENGTH`]: some chat apps and browsers cut it.
    Long,
    /// Over [`FILE_LENGTH`]: share a scenario file instead.
    TooLong,
}

impl LinkWarning {
    /// What the app says, for a link of `len` characters.
    pub fn message(self, len: usize) -> String {
        match self {
            LinkWarning::Long => format!(
                "This link is {len} characters long; some chat apps and browsers cut links over 2,000. \
                 Declaring similar nodes as one pool (`{{pool: worker, count: 50}}`) makes it much shorter."
            ),
            LinkWarning::TooLong => format!(
                "This link is {len} characters long, too long to share reliably (over {} KiB). \
                 Download the scenario as a YAML file and share the file instead.",
                FILE_LENGTH / 1024
            ),
        }
    }
}

/// The warning a link of `len` characters deserves, if any.
pub fn link_warning(len: usize) -> Option<LinkWarning> {
    if len > FILE_LENGTH {
        Some(LinkWarning::TooLong)
    } else if len > WARN_LENGTH {
        Some(LinkWarning::Long)
    } else {
        None
    }
}

/// Whether `s` looks like a payload: `<digits>.<anything>`.
fn looks_like_payload(s: &str) -> bool {
    s.split_once('.')
        .is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}

/// Opens a link: a whole address, a `#s=…` fragment, `s=…`, or the bare payload, each with an
/// optional `&t=<seconds>`.
pub fn decode(input: &str) -> Result<Shared, ShareError> {
    let input = input.trim();
    if input.len() > MAX_INPUT {
        return Err(err(
            ShareErrorKind::TooLarge,
            format!(
                "this link is {} characters long; links are read up to {} MiB",
                input.len(),
                MAX_INPUT >> 20
            ),
            "share a scenario file instead of so large a link",
        ));
    }
    let frag = match input.split_once('#') {
        Some((_, f)) => f,
        None => input,
    };
    let mut payload = None;
    let mut time = None;
    for (i, part) in frag.split('&').enumerate() {
        if let Some(p) = part.strip_prefix("s=") {
            payload = Some(p);
        } else if let Some(t) = part.strip_prefix("t=") {
            time = Some(t);
        } else if i == 0 && looks_like_payload(part) {
            payload = Some(part);
        }
    }
    let Some(payload) = payload else {
        return Err(err(
            ShareErrorKind::NotALink,
            "this address holds no shared scenario (no `#s=` part)",
            "a share link ends in `#s=1.` followed by letters and digits: copy the whole link",
        ));
    };
    let (scenario, view) = decode_payload(payload)?;
    let t = time.map(parse_time).transpose()?;
    Ok(Shared { scenario, view, t })
}

fn parse_time(t: &str) -> Result<f64, ShareError> {
    let hint = "t= is the virtual time to open at, in seconds, e.g. `&t=12.5`";
    let shown: String = t.chars().take(20).collect();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=MAX_TIME).contains(&v) => Ok(v),
        Ok(v) if v.is_finite() => Err(err(
            ShareErrorKind::BadTime,
            format!(
                "t={shown} is out of range: a link opens between 0 and {MAX_TIME} seconds of virtual time"
            ),
            hint,
        )),
        _ => Err(err(
            ShareErrorKind::BadTime,
            format!("t={shown:?} is not a number of seconds"),
            hint,
        )),
    }
}

/// Reads a payload (`1.<data>`) into a scenario and its view.
pub fn decode_payload(payload: &str) -> Result<(Scenario, ShareView), ShareError> {
    let Some((version, data)) = payload.split_once('.') else {
        return Err(err(
            ShareErrorKind::NotALink,
            "this is not a share link's data: it does not start with a format number and a dot",
            "a share link ends in `#s=1.` followed by letters and digits: copy the whole link",
        ));
    };
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(
            ShareErrorKind::NotALink,
            "this is not a share link's data: it does not start with a format number",
            "a share link ends in `#s=1.` followed by letters and digits: copy the whole link",
        ));
    }
    if version.trim_start_matches('0') != VERSION.to_string() {
        let shown: String = version.chars().take(12).collect();
        return Err(err(
            ShareErrorKind::UnknownVersion(shown.clone()),
            format!(
                "this link uses share format {shown}; this version of the playground reads format {VERSION}"
            ),
            "it was made by another version of the playground: open it there, or ask its author for the scenario file",
        ));
    }
    let packed = B64.decode(data).map_err(|e| {
        let offset = version.len() + 1;
        let what = match e {
            base64::DecodeError::InvalidByte(at, b) => format!(
                "character {:?} at position {} is not part of a link",
                char::from(b),
                at + offset + 1
            ),
            base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidLastSymbol(..) => {
                "it ends in the middle of a character group".to_string()
            }
            base64::DecodeError::InvalidPadding => "its padding is wrong".to_string(),
        };
        err(
            ShareErrorKind::Corrupt,
            format!("this link is damaged: {what}"),
            HINT_COPY_AGAIN,
        )
    })?;
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED).map_err(|e| {
            match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => err(
                    ShareErrorKind::TooLarge,
                    format!(
                        "this link's scenario is larger than {} MiB once unpacked",
                        MAX_INFLATED >> 20
                    ),
                    "share so large a scenario as a file instead of a link",
                ),
                _ => err(
                    ShareErrorKind::Corrupt,
                    "this link is damaged: its data does not unpack",
                    HINT_COPY_AGAIN,
                ),
            }
        })?;
    let value: Value = serde_json::from_slice(&json).map_err(|e| {
        err(
            ShareErrorKind::BadData,
            format!("this link's data is not a scenario: {e}"),
            HINT_COPY_AGAIN,
        )
    })?;
    check_sizes(&value, &mut String::new())?;
    let Value::Object(mut root) = value else {
        return Err(err(
            ShareErrorKind::BadData,
            "this link's data is not a scenario: it is not a map of the scenario file's keys",
            HINT_COPY_AGAIN,
        ));
    };
    let view = match root.remove("view") {
        None | Some(Value::Null) => ShareView::default(),
        Some(v) => read_view(&v)?,
    };
    let scenario = from_json(SOURCE_NAME, &Value::Object(root)).map_err(|e| {
        err(
            ShareErrorKind::BadScenario,
            format!("this link's scenario is invalid: {}", e.message),
            e.hint.unwrap_or_else(|| {
                "the link was made by a different build or edited by hand: ask its author for the scenario file".into()
            }),
        )
    })?;
    Ok((scenario, view))
}

/// Every key and string within bounds; `path` is where we are (`nodes[3].labels`).
fn check_sizes(v: &Value, path: &mut String) -> Result<(), ShareError> {
    let too_long = |what: &str, path: &str, len: usize, max: usize| {
        let at = if path.is_empty() { "the top" } else { path };
        err(
            ShareErrorKind::BadData,
            format!("this link's scenario has a {what} of {len} bytes at {at}; the limit is {max}"),
            "share so large a scenario as a file instead of a link",
        )
    };
    match v {
        Value::String(s) if s.len() > MAX_STRING_LEN => {
            Err(too_long("text", path, s.len(), MAX_STRING_LEN))
        }
        Value::Array(items) => {
            let len = path.len();
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                check_sizes(item, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Object(m) => {
            let len = path.len();
            for (k, item) in m {
                if k.len() > MAX_KEY_LEN {
                    return Err(too_long("key", path, k.len(), MAX_KEY_LEN));
                }
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                check_sizes(item, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn read_view(v: &Value) -> Result<ShareView, ShareError> {
    let Value::Object(m) = v else {
        return Err(err(
            ShareErrorKind::BadData,
            "this link's `view` is not a map",
            HINT_COPY_AGAIN,
        ));
    };
    // Keys this build does not know are ignored: the view is cosmetic, and a later build may
    // add some without a new format.
    let word = |key: &str| -> Result<Option<String>, ShareError> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s))
                if !s.is_empty()
                    && s.len() <= 32
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') =>
            {
                Ok(Some(s.clone()))
            }
            Some(_) => Err(err(
                ShareErrorKind::BadData,
                format!("this link's view.{key} is not a short lower-case word"),
                HINT_COPY_AGAIN,
            )),
        }
    };
    Ok(ShareView {
        panel: word("panel")?,
        theme: word("theme")?,
        lesson: match m.get("lesson") {
            None | Some(Value::Null) => None,
            Some(l) => Some(read_lesson(l)?),
        },
    })
}

/// `view.lesson`: `{id, step, answered?, done?, played}`. Whether the id names a lesson is the
/// page's to say (it lists the ones it has).
fn read_lesson(v: &Value) -> Result<ShareLesson, ShareError> {
    let bad = |what: &str| {
        err(
            ShareErrorKind::BadData,
            format!("this link's view.lesson {what}"),
            HINT_COPY_AGAIN,
        )
    };
    let Value::Object(m) = v else {
        return Err(bad("is not a map"));
    };
    let id = match m.get("id") {
        Some(Value::String(s))
            if !s.is_empty()
                && s.len() <= 63
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') =>
        {
            s.clone()
        }
        _ => return Err(bad("has no id of lower-case letters, digits and `-`")),
    };
    let count = |key: &str| -> Result<Option<usize>, ShareError> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(n) => n
                .as_u64()
                .filter(|n| *n <= MAX_LESSON_STEPS)
                .map(|n| Some(n as usize))
                .ok_or_else(|| bad(&format!("has a {key} that is not a small whole number"))),
        }
    };
    let done = match m.get("done") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad("has a done that is not true or false")),
    };
    Ok(ShareLesson {
        id,
        progress: crate::lesson::LessonProgress {
            step: count("step")?.unwrap_or(0),
            answered: count("answered")?,
            done,
        },
        played: count("played")?.unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_short() {
        assert_eq!(format_time(12.5), "12.5");
        assert_eq!(format_time(30.0), "30");
        assert_eq!(format_time(0.0004), "0");
    }

    #[test]
    fn warnings_at_the_contract_thresholds() {
        assert_eq!(link_warning(2_000), None);
        assert_eq!(link_warning(2_001), Some(LinkWarning::Long));
        assert_eq!(link_warning(32 * 1024 + 1), Some(LinkWarning::TooLong));
        assert!(LinkWarning::Long.message(2_500).contains("pool"));
        assert!(LinkWarning::TooLong.message(40_000).contains("file"));
    }
}
