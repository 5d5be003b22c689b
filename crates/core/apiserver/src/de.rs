//! The API server's JSON decoder (Go `encoding/json` plus strict field validation) over the
//! positioned YAML tree, for every Kubernetes type the playground serves.
//!
//! Go decodes by the *target* type: a JSON bool where a string is expected is an error
//! (`cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type
//! string`), a JSON null leaves the zero value, unknown fields are collected and reported as
//! `strict decoding error: unknown field "…"`. [`Decode`] is that per target type: the leaves
//! (strings, numbers, quantities, times …) by hand, every struct from the field table of
//! `codec::k8s_types!`, and the tree tells where each value was written — together that is
//! everything the error message needs.
//!
//! Not serde: k8s-openapi's `Deserialize` instances, one set per type, were the largest part of
//! the web app. Here a struct's own code is one small arm per field; the loops over a struct's
//! entries, a list's items and a map's entries are written once (`De::decode_struct`,
//! `decode_items`, `decode_entries`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, MicroTime, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;

use crate::yaml::{float_as_int, Entry, Node, Pos, Value};

/// Decodes `node` into `T`; unknown fields are appended to `unknown`.
pub(crate) fn from_node<T: Decode>(
    node: &Node,
    unknown: &mut Vec<UnknownField>,
) -> Result<T, DeError> {
    let ctx = Ctx {
        unknown: RefCell::new(Vec::new()),
    };
    let out = T::decode(De {
        node,
        link: None,
        ctx: &ctx,
    });
    unknown.extend(ctx.unknown.into_inner());
    out
}

struct Ctx {
    unknown: RefCell<Vec<UnknownField>>,
}

/// A field the target struct does not have (the API server rejects these under strict
/// field validation, kubectl's default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnknownField {
    /// Full path, e.g. `spec.template.spec.containers[0].imagee`.
    pub path: String,
    /// Position of the key.
    pub pos: Pos,
    pub name: String,
    /// Go struct that lacks the field, e.g. `Container`.
    pub owner: &'static str,
    /// A field of `owner` whose name is close, e.g. `image`.
    pub suggestion: Option<&'static str>,
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Field { name: &'a str, owner: &'static str },
    Key(&'a str),
    Index(usize),
}

/// The path from the root to the value being decoded, as a linked list on the stack.
struct Link<'a> {
    parent: Option<&'a Link<'a>>,
    seg: Seg<'a>,
}

fn segments<'a>(mut link: Option<&'a Link<'a>>) -> Vec<Seg<'a>> {
    let mut segs = Vec::new();
    while let Some(l) = link {
        segs.push(l.seg);
        link = l.parent;
    }
    segs.reverse();
    segs
}

fn render_path(segs: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg {
            Seg::Field { name, .. } | Seg::Key(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Where a decode error happened and what was found there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct At {
    pub pos: Pos,
    /// `spec.template.spec.nodeSelector.k42`
    pub json_path: String,
    /// Go's struct-field context: `PodSpec.spec.template.spec.nodeSelector`; `None` at the root.
    pub go_field: Option<String>,
    /// The key or field name holding the value (`k42`), if it is held by a key.
    pub holder: Option<String>,
    /// Go's name of the JSON kind found: `bool`, `string`, `number`, `object`, `array`.
    pub found: &'static str,
    pub number: Option<String>,
    /// Source text of a plain scalar that resolved to a non-string (`yes`).
    pub plain: Option<String>,
    pub string_value: Option<String>,
}

impl At {
    fn new(node: &Node, link: Option<&Link<'_>>) -> At {
        let segs = segments(link);
        let fields: Vec<(&str, &'static str)> = segs
            .iter()
            .filter_map(|s| match s {
                Seg::Field { name, owner } => Some((*name, *owner)),
                _ => None,
            })
            .collect();
        let go_field = fields.last().map(|(_, owner)| {
            let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
            format!("{owner}.{}", names.join("."))
        });
        let holder = match segs.last() {
            Some(Seg::Field { name, .. } | Seg::Key(name)) => Some((*name).to_string()),
            _ => None,
        };
        At {
            pos: node.pos,
            json_path: render_path(&segs),
            go_field,
            holder,
            found: node.json_kind(),
            number: node.number_text(),
            plain: node.plain.as_deref().map(str::to_string),
            string_value: node.as_str().map(str::to_string),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DeErrorKind {
    /// Wrong JSON kind for the Go type (`bool` into `string`).
    Mismatch { go_type: String },
    /// A number that does not fit the Go type (`1.5` or `3000000000` into `int32`).
    OutOfRange { go_type: String },
    /// Text that is no `resource.Quantity`: `UnmarshalJSON`'s `ParseQuantity` error.
    Quantity(k8s_base::QuantityError),
    /// Anything else a type's own decoder complained about.
    Custom(String),
}

/// A decode failure and where it happened; always located (made by `De::fail`). One box, so
/// a decoding step returns a single word and each field costs one test of it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeError(pub(crate) Box<Located>);

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Located {
    pub kind: DeErrorKind,
    pub at: At,
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            DeErrorKind::Mismatch { go_type } | DeErrorKind::OutOfRange { go_type } => {
                write!(f, "cannot unmarshal into {go_type}")
            }
            DeErrorKind::Quantity(e) => write!(f, "{e}"),
            DeErrorKind::Custom(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for DeError {}

/// A Kubernetes type (or part of one) the API server's decoder reads, as Go's `encoding/json`
/// reads it into the Go type. Implemented for every type `codec::k8s_types!` lists.
pub trait Decode: Sized {
    #[doc(hidden)]
    fn decode(de: De<'_, '_>) -> Result<Self, DeError>;

    /// Go's name of the type, as in `cannot unmarshal … of type []v1.Container`.
    #[doc(hidden)]
    fn go_type(out: &mut String);

    /// Decodes into a struct's field: one instance per field type, so a struct's field arm is
    /// only a call and a test. A JSON null leaves the field its zero value, whatever its type
    /// (Go's `encoding/json`, and k8s-openapi's decoders, do the same: a null `port` of an
    /// `httpGet` is 0, not an error).
    #[doc(hidden)]
    fn decode_in(slot: &mut Self, de: De<'_, '_>) -> Result<(), DeError>
    where
        Self: Default,
    {
        *slot = match de.node.value {
            Value::Null => Self::default(),
            _ => Self::decode(de)?,
        };
        Ok(())
    }
}

/// A position in the tree being decoded: the node, the path to it, the shared state.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct De<'n, 'a> {
    node: &'n Node,
    link: Option<&'a Link<'a>>,
    ctx: &'a Ctx,
}

const NO_ENTRIES: &[Entry] = &[];

impl<'n, 'a> De<'n, 'a> {
    /// An error located at this node. Not generic, not inlined: one copy for all types.
    #[inline(never)]
    fn fail(&self, kind: DeErrorKind) -> DeError {
        DeError(Box::new(Located {
            kind,
            at: At::new(self.node, self.link),
        }))
    }

    #[inline(never)]
    fn mismatch(&self, go_type: &str) -> DeError {
        self.fail(DeErrorKind::Mismatch {
            go_type: go_type.to_string(),
        })
    }

    fn child<'b>(&self, node: &'n Node, link: &'b Link<'b>) -> De<'n, 'b>
    where
        'a: 'b,
    {
        De {
            node,
            link: Some(link),
            ctx: self.ctx,
        }
    }

    /// A mismatch for a collection: `[]` or `map[string]` and its element's Go type. Takes the
    /// element's name as a function so the text is built here, once, not in every instance.
    #[inline(never)]
    fn mismatch_of(&self, prefix: &str, element: fn(&mut String)) -> DeError {
        let mut go_type = String::from(prefix);
        element(&mut go_type);
        self.mismatch(&go_type)
    }

    /// A whole number as Go reads it into an integer type named `go_type` with range
    /// `min..=max`: a fraction or a number outside the range is out of range.
    #[inline(never)]
    fn integer(&self, go_type: &str, min: i64, max: i64) -> Result<i64, DeError> {
        let out_of_range = || {
            self.fail(DeErrorKind::OutOfRange {
                go_type: go_type.to_string(),
            })
        };
        let v = match &self.node.value {
            Value::Int(i) => *i,
            Value::UInt(u) => i64::try_from(*u).map_err(|_| out_of_range())?,
            Value::Float(f) => float_as_int(*f).ok_or_else(out_of_range)?,
            Value::Null => 0,
            _ => return Err(self.mismatch(go_type)),
        };
        if v < min || v > max {
            return Err(out_of_range());
        }
        Ok(v)
    }

    /// Decodes a Go struct named `go` with JSON fields `fields` from a mapping (a JSON null has
    /// no entries): in the order written, a key that is no field is recorded as unknown, a field
    /// is handed to `field` with its position in `fields`. The loop is here, once; a struct's own
    /// code is only its `field` arms.
    #[inline(never)]
    fn decode_struct(
        &self,
        go: &'static str,
        fields: &'static [&'static str],
        field: &mut dyn FnMut(usize, De<'_, '_>) -> Result<(), DeError>,
    ) -> Result<(), DeError> {
        let entries = match &self.node.value {
            Value::Map(entries) => entries.as_slice(),
            Value::Null => NO_ENTRIES,
            _ => return Err(self.mismatch(&format!("v1.{go}"))),
        };
        for entry in entries {
            let Some(index) = fields.iter().position(|f| *f == entry.key) else {
                let link = Link {
                    parent: self.link,
                    seg: Seg::Key(&entry.key),
                };
                self.ctx.unknown.borrow_mut().push(UnknownField {
                    path: render_path(&segments(Some(&link))),
                    pos: entry.key_pos,
                    name: entry.key.clone(),
                    owner: go,
                    suggestion: suggest(&entry.key, fields),
                });
                continue;
            };
            let link = Link {
                parent: self.link,
                seg: Seg::Field {
                    name: &entry.key,
                    owner: go,
                },
            };
            field(index, self.child(&entry.value, &link))?;
        }
        Ok(())
    }

    /// Hands every item of a sequence (a JSON null has none) to `item`, located by its index;
    /// anything else is a mismatch with `[]` and the element's Go type.
    #[inline(never)]
    fn decode_items(
        &self,
        element: fn(&mut String),
        item: &mut dyn FnMut(De<'_, '_>) -> Result<(), DeError>,
    ) -> Result<(), DeError> {
        let items = match &self.node.value {
            Value::Seq(items) => items.as_slice(),
            Value::Null => &[],
            _ => return Err(self.mismatch_of("[]", element)),
        };
        for (i, node) in items.iter().enumerate() {
            let link = Link {
                parent: self.link,
                seg: Seg::Index(i),
            };
            item(self.child(node, &link))?;
        }
        Ok(())
    }

    /// Hands every entry of a mapping (a JSON null has none) to `entry`, located by its key;
    /// anything else is a mismatch with `map[string]` and the value's Go type.
    #[inline(never)]
    fn decode_entries(
        &self,
        element: fn(&mut String),
        entry: &mut dyn FnMut(&str, De<'_, '_>) -> Result<(), DeError>,
    ) -> Result<(), DeError> {
        let entries = match &self.node.value {
            Value::Map(entries) => entries.as_slice(),
            Value::Null => NO_ENTRIES,
            _ => return Err(self.mismatch_of("map[string]", element)),
        };
        for e in entries {
            let link = Link {
                parent: self.link,
                seg: Seg::Key(&e.key),
            };
            entry(&e.key, self.child(&e.value, &link))?;
        }
        Ok(())
    }

    /// A resource's `apiVersion` or `kind`: when given, it must be `expected`.
    #[inline(never)]
    fn type_meta(&self, expected: &str) -> Result<(), DeError> {
        let found = match &self.node.value {
            Value::Str(s) => s.as_str(),
            Value::Null => "",
            _ => return Err(self.mismatch("string")),
        };
        if found == expected {
            return Ok(());
        }
        Err(self.fail(DeErrorKind::Custom(format!(
            "invalid value: string {found:?}, expected {expected}"
        ))))
    }
}

impl Decode for String {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        match &de.node.value {
            Value::Str(s) => Ok(s.clone()),
            Value::Null => Ok(String::new()),
            _ => Err(de.mismatch("string")),
        }
    }

    fn go_type(out: &mut String) {
        out.push_str("string");
    }
}

impl Decode for bool {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        match &de.node.value {
            Value::Bool(b) => Ok(*b),
            Value::Null => Ok(false),
            _ => Err(de.mismatch("bool")),
        }
    }

    fn go_type(out: &mut String) {
        out.push_str("bool");
    }
}

impl Decode for i32 {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        let v = de.integer("int32", i32::MIN.into(), i32::MAX.into())?;
        // The range was checked.
        Ok(v as i32)
    }

    fn go_type(out: &mut String) {
        out.push_str("int32");
    }
}

impl Decode for i64 {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        de.integer("int64", i64::MIN, i64::MAX)
    }

    fn go_type(out: &mut String) {
        out.push_str("int64");
    }
}

impl Decode for f64 {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        match &de.node.value {
            Value::Int(i) => Ok(*i as f64),
            Value::UInt(u) => Ok(*u as f64),
            Value::Float(f) => Ok(*f),
            Value::Null => Ok(0.0),
            _ => Err(de.mismatch("float64")),
        }
    }

    fn go_type(out: &mut String) {
        out.push_str("float64");
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        match de.node.value {
            Value::Null => Ok(None),
            _ => T::decode(de).map(Some),
        }
    }

    fn go_type(out: &mut String) {
        T::go_type(out);
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        let mut out = Vec::new();
        de.decode_items(T::go_type, &mut |item| {
            out.push(T::decode(item)?);
            Ok(())
        })?;
        Ok(out)
    }

    fn go_type(out: &mut String) {
        out.push_str("[]");
        T::go_type(out);
    }
}

impl<T: Decode> Decode for BTreeMap<String, T> {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        let mut out = BTreeMap::new();
        de.decode_entries(T::go_type, &mut |key, value| {
            out.insert(key.to_string(), T::decode(value)?);
            Ok(())
        })?;
        Ok(out)
    }

    fn go_type(out: &mut String) {
        out.push_str("map[string]");
        T::go_type(out);
    }
}

/// `runtime.RawExtension` and `FieldsV1`: any JSON value.
impl Decode for RawExtension {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        Ok(RawExtension(de.node.to_json()))
    }

    fn go_type(out: &mut String) {
        out.push_str("runtime.RawExtension");
    }
}

impl Decode for FieldsV1 {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        Ok(FieldsV1(de.node.to_json()))
    }

    fn go_type(out: &mut String) {
        out.push_str("v1.FieldsV1");
    }
}

/// `resource.Quantity` takes a string or a number, kept as its text; `UnmarshalJSON` reads it
/// (trimmed) with `ParseQuantity`, so text that is no quantity fails the whole object, with
/// upstream's error and no field path (`k8s_base::Quantity::parse_trimmed`).
impl Decode for Quantity {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        let text = match &de.node.value {
            Value::Str(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::UInt(u) => u.to_string(),
            Value::Float(f) => match float_as_int(*f) {
                Some(i) => i.to_string(),
                None => f.to_string(),
            },
            _ => return Err(de.mismatch("resource.Quantity")),
        };
        if let Err(e) = k8s_base::Quantity::parse_trimmed(&text) {
            return Err(de.fail(DeErrorKind::Quantity(e)));
        }
        Ok(Quantity(text))
    }

    fn go_type(out: &mut String) {
        out.push_str("resource.Quantity");
    }
}

/// `intstr.IntOrString`: a 32-bit integer or a string.
impl Decode for IntOrString {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        match &de.node.value {
            Value::Str(s) => Ok(IntOrString::String(s.clone())),
            // A fraction is no int32 here: the type, not the range, is wrong.
            Value::Float(f) if float_as_int(*f).is_none() => Err(de.mismatch("intstr.IntOrString")),
            Value::Int(_) | Value::UInt(_) | Value::Float(_) => {
                i32::decode(de).map(IntOrString::Int)
            }
            _ => Err(de.mismatch("intstr.IntOrString")),
        }
    }

    fn go_type(out: &mut String) {
        out.push_str("intstr.IntOrString");
    }
}

/// An RFC 3339 time, failing as Go's `time.Parse` does.
#[inline(never)]
fn timestamp(de: &De<'_, '_>) -> Result<Timestamp, DeError> {
    let s = match &de.node.value {
        Value::Str(s) => s.as_str(),
        // Go leaves a null time zero: 0001-01-01T00:00:00Z.
        Value::Null => return Ok(Timestamp::new(-62_135_596_800, 0).unwrap_or_default()),
        _ => return Err(de.mismatch("string")),
    };
    codec::parse_time(s).ok_or_else(|| {
        let q = crate::gofmt::quote(s);
        de.fail(DeErrorKind::Custom(format!(
            "parsing time {q} as \"2006-01-02T15:04:05Z07:00\": cannot parse {q} as \"2006\""
        )))
    })
}

impl Decode for Time {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        timestamp(&de).map(Time)
    }

    fn go_type(out: &mut String) {
        out.push_str("v1.Time");
    }
}

impl Decode for MicroTime {
    fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
        timestamp(&de).map(MicroTime)
    }

    fn go_type(out: &mut String) {
        out.push_str("v1.MicroTime");
    }
}

/// A struct: its entries in order, each field decoded in place; unknown keys recorded.
macro_rules! decode_fields {
    ($de:ident, $out:ident, $child:ident, $go:expr, [$($extra:literal),*] { $($i:literal $f:ident $json:literal,)* } $($meta:tt)*) => {{
        const FIELDS: &[&str] = &[$($extra,)* $($json),*];
        $de.decode_struct($go, FIELDS, &mut |index, $child| {
            match index {
                $($i => Decode::decode_in(&mut $out.$f, $child)?,)*
                $($meta)*
                _ => {}
            }
            Ok(())
        })?;
    }};
}

macro_rules! decode_resource {
    ($ty:ty { $($body:tt)* }) => {
        impl Decode for $ty {
            fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
                let mut out = <$ty>::default();
                decode_fields!(de, out, child, <$ty as k8s_openapi::Resource>::KIND, ["apiVersion", "kind"] { $($body)* }
                    0 => child.type_meta(<$ty as k8s_openapi::Resource>::API_VERSION)?,
                    1 => child.type_meta(<$ty as k8s_openapi::Resource>::KIND)?,
                );
                Ok(out)
            }

            fn go_type(out: &mut String) {
                out.push_str("v1.");
                out.push_str(<$ty as k8s_openapi::Resource>::KIND);
            }
        }
    };
}

macro_rules! decode_plain {
    ($ty:ty, $go:literal { $($body:tt)* }) => {
        impl Decode for $ty {
            fn decode(de: De<'_, '_>) -> Result<Self, DeError> {
                let mut out = <$ty>::default();
                decode_fields!(de, out, child, $go, [] { $($body)* });
                Ok(out)
            }

            fn go_type(out: &mut String) {
                out.push_str(concat!("v1.", $go));
            }
        }
    };
}

codec::k8s_types!(decode_resource, decode_plain);

/// A field of `fields` that `key` was probably meant to be.
fn suggest(key: &str, fields: &'static [&'static str]) -> Option<&'static str> {
    if let Some(f) = fields.iter().find(|f| f.eq_ignore_ascii_case(key)) {
        return Some(f);
    }
    let budget = match key.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    fields
        .iter()
        .map(|f| {
            (
                k8s_base::typo::edit_distance(&key.to_ascii_lowercase(), &f.to_ascii_lowercase()),
                *f,
            )
        })
        .filter(|(d, _)| *d <= budget)
        .min_by_key(|(d, _)| *d)
        .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_stream;
    use k8s_openapi::api::core::v1::PodSpec;

    fn decode_spec(text: &str) -> Result<PodSpec, DeError> {
        let docs = parse_stream(text)
            .map_err(|e| panic!("{e:?}"))
            .unwrap_or_default();
        let mut unknown = Vec::new();
        from_node(&docs[0], &mut unknown)
    }

    #[test]
    fn element_types_are_named_like_go() {
        let err = decode_spec("containers: {name: x}\n").err();
        let Some(DeErrorKind::Mismatch { go_type }) = err.as_ref().map(|e| &e.0.kind) else {
            panic!("{err:?}")
        };
        let at = &err.as_ref().map(|e| &e.0.at).unwrap();
        assert_eq!(go_type, "[]v1.Container");
        assert_eq!(at.go_field.as_deref(), Some("PodSpec.containers"));
        assert_eq!(at.found, "object");
    }

    #[test]
    fn map_value_types_are_named_like_go() {
        let err = decode_spec("nodeSelector: [a]\n").err();
        assert!(matches!(
            err,
            Some(DeError(ref e)) if matches!(&e.kind, DeErrorKind::Mismatch { go_type } if go_type == "map[string]string")
        ));
    }

    fn round_trip<T: Decode + codec::sample::Sample + codec::Encode + PartialEq>() {
        let x = T::sample(0);
        let back: Result<T, String> = crate::decode_json(&codec::to_json(&x));
        assert!(back.as_ref() == Ok(&x), "{}", std::any::type_name::<T>());
    }

    /// Every field of every served type is read back as it was written.
    #[test]
    fn decoding_reads_every_field_encoding_writes() {
        use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
        use k8s_openapi::api::core::v1::{Event, Node, Pod};
        round_trip::<DaemonSet>();
        round_trip::<ControllerRevision>();
        round_trip::<Pod>();
        round_trip::<Node>();
        round_trip::<Event>();
    }

    /// Where k8s-openapi's own decoder (serde) reads a value, ours reads the same: the sample
    /// object of every kind, with every value at one depth replaced by null in turn (null is
    /// where Go's rules are least obvious: zero values, empty lists, unset options).
    #[test]
    fn decoding_agrees_with_k8s_openapi_on_nulls() {
        use codec::sample::Sample;
        use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
        use k8s_openapi::api::core::v1::{Event, Node, Pod};
        use serde_json::Value as J;

        // Only struct fields: serde_json reads a null map value or list item of a string as an
        // error where Go (and our decoder) reads "", so there the two are not comparable. The
        // sample's maps are the objects with `key-N` keys.
        fn null_at(v: &mut J, depth: usize) {
            match v {
                J::Object(m) => {
                    let is_map = m.keys().any(|k| k.starts_with("key-"));
                    m.iter_mut().for_each(|(k, v)| {
                        // apiVersion and kind are checked, not decoded.
                        if depth == 0 && !is_map && k != "apiVersion" && k != "kind" {
                            *v = J::Null;
                        } else if depth > 0 {
                            null_at(v, depth - 1);
                        }
                    })
                }
                J::Array(items) => items
                    .iter_mut()
                    .for_each(|v| null_at(v, depth.saturating_sub(1))),
                _ => {}
            }
        }
        fn agree<T>()
        where
            T: Sample
                + codec::Encode
                + Decode
                + serde::de::DeserializeOwned
                + PartialEq
                + fmt::Debug,
        {
            for depth in 0..12 {
                let mut json = codec::to_json(&T::sample(0));
                null_at(&mut json, depth);
                let theirs: Result<T, _> = serde_json::from_value(json.clone());
                let ours: Result<T, String> = crate::decode_json(&json);
                match (theirs, ours) {
                    (Ok(t), Ok(o)) => {
                        assert!(t == o, "{} at depth {depth}", std::any::type_name::<T>())
                    }
                    (Err(_), Err(_)) => {}
                    (t, o) => panic!(
                        "{} at depth {depth}: serde {:?}, ours {:?}",
                        std::any::type_name::<T>(),
                        t.err(),
                        o.err()
                    ),
                }
            }
        }
        agree::<DaemonSet>();
        agree::<ControllerRevision>();
        agree::<Pod>();
        agree::<Node>();
        agree::<Event>();
    }

    /// A request body of another apiVersion or kind is refused as k8s-openapi's decoder did.
    #[test]
    fn a_body_of_another_version_or_kind_is_refused() {
        use k8s_openapi::api::apps::v1::DaemonSet;
        let body = |v: &str, k: &str| serde_json::json!({"apiVersion": v, "kind": k});
        let err = crate::decode_json::<DaemonSet>(&body("apps/v2", "DaemonSet")).err();
        assert_eq!(
            err.as_deref(),
            Some("invalid value: string \"apps/v2\", expected apps/v1")
        );
        let err = crate::decode_json::<DaemonSet>(&body("apps/v1", "Deployment")).err();
        assert_eq!(
            err.as_deref(),
            Some("invalid value: string \"Deployment\", expected DaemonSet")
        );
        assert!(crate::decode_json::<DaemonSet>(&body("apps/v1", "DaemonSet")).is_ok());
    }

    /// Unknown fields are listed in the order they are written, nested ones where they occur
    /// (the first is the one an error points at).
    #[test]
    fn unknown_fields_are_listed_in_written_order() {
        let unknown = |text: &str| {
            let docs = parse_stream(text).unwrap_or_default();
            let mut unknown = Vec::new();
            let _: Result<PodSpec, _> = from_node(&docs[0], &mut unknown);
            unknown.into_iter().map(|u| u.path).collect::<Vec<_>>()
        };
        assert_eq!(
            unknown("containers: [{name: a, imagee: x}]\nnodeSelectr: {}\n"),
            ["containers[0].imagee", "nodeSelectr"]
        );
        assert_eq!(
            unknown("nodeSelectr: {}\ncontainers: [{name: a, imagee: x}]\n"),
            ["nodeSelectr", "containers[0].imagee"]
        );
    }

    #[test]
    fn suggestions_find_typos() {
        assert_eq!(suggest("imagee", &["image", "name"]), Some("image"));
        assert_eq!(
            suggest("nodeselector", &["nodeSelector"]),
            Some("nodeSelector")
        );
        assert_eq!(suggest("zzz", &["image"]), None);
    }
}
