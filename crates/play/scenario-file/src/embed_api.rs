//! The Embed API's incoming messages (DESIGN §4.3, `docs/embed.md`) as data: what a host page
//! may ask a framed playground, read field by field, and why anything else is ignored. The
//! browser side (reading a `MessageEvent`, running the command) is the app's `embed_api`; this
//! part is plain Rust so that it is tested natively and fuzzed (`fuzz/fuzz_targets/embed.rs`).
//! Nothing here panics on any input.

use crate::share::MAX_TIME;

/// The transport's speeds: the page's speed menu, a saved session's `speed`, and what the Embed
/// API snaps a host's `dsplay:speed` to.
pub const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// The longest scenario text `dsplay:load` takes, in UTF-16 units: a share link's own cap.
pub const MAX_SCENARIO: u32 = 1 << 20;

/// What a host asks of the playground.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Play,
    Pause,
    /// Virtual seconds, finite and within a share link's range.
    Seek(f64),
    /// One of [`SPEEDS`] (the nearest to what was asked).
    Speed(f64),
    Step,
    /// A scenario file's text.
    Load(String),
}

/// A field of an incoming message, as far as the API reads one.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Number(f64),
    Text(String),
    /// A string over [`MAX_SCENARIO`]: not copied into the wasm memory.
    LongText,
    /// Missing, null, a boolean, an object…
    Other,
}

impl Command {
    /// The command a message asks for, or why it is ignored. `kind` is the message's `type`,
    /// `field` reads its other fields. (Static reasons: each `format!` costs page weight.)
    pub fn parse(kind: &Field, field: impl Fn(&str) -> Field) -> Result<Command, &'static str> {
        let Field::Text(kind) = kind else {
            return Err("not an object with a string `type`");
        };
        let number = |name| match field(name) {
            Field::Number(x) if x.is_finite() => Some(x),
            _ => None,
        };
        Ok(match kind.as_str() {
            "dsplay:play" => Command::Play,
            "dsplay:pause" => Command::Pause,
            "dsplay:step" => Command::Step,
            "dsplay:seek" => match number("t") {
                Some(t) if (0.0..=MAX_TIME).contains(&t) => Command::Seek(t),
                _ => return Err("`t` is not a number of seconds from 0 to 2592000"),
            },
            "dsplay:speed" => match number("x") {
                Some(x) if x > 0.0 => Command::Speed(nearest_speed(x)),
                _ => return Err("`x` is not a finite number above 0"),
            },
            "dsplay:load" => match field("scenario") {
                Field::Text(s) => Command::Load(s),
                Field::LongText => return Err("`scenario` is over 1 Mi characters"),
                _ => return Err("`scenario` is not a string"),
            },
            _ => return Err("unknown type"),
        })
    }
}

/// The speed of [`SPEEDS`] nearest to `x` by ratio (so 3 gives 4, not 2, and 1000 gives the
/// fastest): the speed menu always shows what plays.
pub fn nearest_speed(x: f64) -> f64 {
    let off = |s: f64| if s > x { s / x } else { x / s };
    SPEEDS
        .into_iter()
        .fold(1.0, |best, s| if off(s) < off(best) { s } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(kind: &str, fields: &[(&str, Field)]) -> Result<Command, &'static str> {
        Command::parse(&Field::Text(kind.into()), |name| {
            fields
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(Field::Other, |(_, v)| v.clone())
        })
    }

    #[test]
    fn every_command_with_good_fields_is_read() {
        assert_eq!(parse("dsplay:play", &[]), Ok(Command::Play));
        assert_eq!(parse("dsplay:pause", &[]), Ok(Command::Pause));
        assert_eq!(parse("dsplay:step", &[]), Ok(Command::Step));
        assert_eq!(
            parse("dsplay:seek", &[("t", Field::Number(30.0))]),
            Ok(Command::Seek(30.0))
        );
        assert_eq!(
            parse("dsplay:speed", &[("x", Field::Number(4.0))]),
            Ok(Command::Speed(4.0))
        );
        assert_eq!(
            parse("dsplay:load", &[("scenario", Field::Text("id: x".into()))]),
            Ok(Command::Load("id: x".into()))
        );
    }

    #[test]
    fn malformed_fields_are_refused_with_the_reason() {
        let t = "`t` is not a number of seconds from 0 to 2592000";
        let x = "`x` is not a finite number above 0";
        let bad = [
            ("dsplay:seek", ("t", Field::Text("x".into())), t),
            ("dsplay:seek", ("t", Field::Number(f64::NAN)), t),
            ("dsplay:seek", ("t", Field::Number(-1.0)), t),
            ("dsplay:seek", ("t", Field::Number(1e300)), t),
            ("dsplay:seek", ("t", Field::Other), t),
            ("dsplay:speed", ("x", Field::Number(f64::NAN)), x),
            ("dsplay:speed", ("x", Field::Number(f64::INFINITY)), x),
            ("dsplay:speed", ("x", Field::Number(0.0)), x),
            ("dsplay:speed", ("x", Field::Text("4".into())), x),
            (
                "dsplay:load",
                ("scenario", Field::Number(1.0)),
                "`scenario` is not a string",
            ),
            (
                "dsplay:load",
                ("scenario", Field::LongText),
                "`scenario` is over 1 Mi characters",
            ),
        ];
        for (kind, field, says) in bad {
            let e =
                parse(kind, std::slice::from_ref(&field)).expect_err(&format!("{kind} {field:?}"));
            assert_eq!(e, says, "{kind} {field:?}");
        }
        assert!(parse("dsplay:rewind", &[])
            .unwrap_err()
            .contains("unknown type"));
        for kind in [Field::Other, Field::Number(1.0), Field::LongText] {
            assert!(Command::parse(&kind, |_| Field::Other).is_err());
        }
    }

    #[test]
    fn a_speed_is_snapped_to_the_nearest_transport_speed_by_ratio() {
        assert_eq!(nearest_speed(4.0), 4.0);
        assert_eq!(nearest_speed(3.0), 4.0);
        assert_eq!(nearest_speed(2.5), 2.0);
        assert_eq!(nearest_speed(1e9), 64.0);
        assert_eq!(nearest_speed(1e-9), 0.25);
        assert!(SPEEDS.contains(&nearest_speed(0.7)));
    }
}
