//! HTML's [`navigator`](https://html.spec.whatwg.org/multipage/system-state.html#the-navigator-object)
//! (`Navigator`, or `WorkerNavigator` in a worker) with the members a server-side runtime
//! has (`userAgent`, `language`, `languages`, `hardwareConcurrency`).
//!
//! The host installs `navigator` with [`install_navigator`], supplying the values
//! ([`NavigatorInfo`]).
//!
//! ```
//! use boa_engine::{Context, Source};
//! use boa_html::navigator::{install_navigator, NavigatorInfo};
//!
//! let mut context = Context::default();
//! boa_html::register(&mut context).unwrap();
//! install_navigator(&mut context, NavigatorInfo::new("my-host/1.0")).unwrap();
//! let ua = context.eval(Source::from_bytes("navigator.userAgent")).unwrap();
//! assert_eq!(ua.as_string().unwrap().to_std_string_escaped(), "my-host/1.0");
//! ```

use boa_engine::{
    class::{Class, ClassBuilder},
    object::builtins::JsArray,
    property::{Attribute, PropertyDescriptor},
    Context, JsData, JsObject, JsResult, JsString, JsValue, NativeFunction,
};
use boa_gc::{Finalize, Trace};
use boa_webidl::{self as webidl, js_key, type_error, Member, INTERFACE_ATTRIBUTES};

/// The values a host supplies for `navigator`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavigatorInfo {
    /// `navigator.userAgent` (e.g. `"boa-streams/0.1.0"`).
    pub user_agent: String,
    /// `navigator.languages` (its first entry is `navigator.language`); empty means
    /// `["en-US"]`.
    pub languages: Vec<String>,
    /// `navigator.hardwareConcurrency`.
    pub hardware_concurrency: u64,
    /// Whether the global is a worker's: the interface is then `WorkerNavigator`, else
    /// `Navigator`.
    pub worker: bool,
}

impl NavigatorInfo {
    /// `user_agent`, languages `["en-US"]`, the number of CPUs the process may use
    /// (`std::thread::available_parallelism`, 1 if unknown), not a worker.
    ///
    /// ```
    /// let info = boa_html::navigator::NavigatorInfo::new("x/1");
    /// assert!(info.hardware_concurrency >= 1);
    /// ```
    pub fn new(user_agent: &str) -> Self {
        Self {
            user_agent: user_agent.to_owned(),
            languages: vec!["en-US".to_owned()],
            hardware_concurrency: std::thread::available_parallelism()
                .map_or(1, |n| u64::try_from(n.get()).unwrap_or(1)),
            worker: false,
        }
    }
}

/// The native data of a `navigator` object.
#[derive(Trace, Finalize, JsData)]
struct NavigatorData {
    #[unsafe_ignore_trace]
    info: NavigatorInfo,
    /// `languages` returns the same frozen array until the languages change (never, here).
    languages: JsValue,
}

/// The `Navigator` interface object (not constructible).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct NavigatorInterface;

/// The `WorkerNavigator` interface object (not constructible).
#[derive(Debug, Trace, Finalize, JsData)]
pub struct WorkerNavigatorInterface;

fn this_navigator(this: &JsValue) -> JsResult<JsObject<NavigatorData>> {
    webidl::brand::<NavigatorData>(this, "Navigator")
}

fn language(info: &NavigatorInfo) -> String {
    info.languages
        .first()
        .cloned()
        .unwrap_or_else(|| "en-US".to_owned())
}

/// [`userAgent`](https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-useragent)
fn get_user_agent(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let n = this_navigator(this)?;
    let ua = n.borrow().data().info.user_agent.clone();
    Ok(JsString::from(ua.as_str()).into())
}

/// [`language`](https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-language)
fn get_language(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let n = this_navigator(this)?;
    let l = language(&n.borrow().data().info);
    Ok(JsString::from(l.as_str()).into())
}

/// [`languages`](https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages)
fn get_languages(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let n = this_navigator(this)?;
    let languages = n.borrow().data().languages.clone();
    Ok(languages)
}

/// [`hardwareConcurrency`](https://html.spec.whatwg.org/multipage/workers.html#dom-navigator-hardwareconcurrency)
fn get_hardware_concurrency(this: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let n = this_navigator(this)?;
    let c = n.borrow().data().info.hardware_concurrency;
    Ok(JsValue::from(c as f64))
}

/// The rows of the interface `name` (`Navigator` or `WorkerNavigator`): its class string,
/// then the members both have: NavigatorID's `userAgent`, NavigatorLanguage's `language` and
/// `languages`, NavigatorConcurrentHardware's `hardwareConcurrency`.
const fn navigator_rows(name: &'static str) -> [Member; 5] {
    [
        Member::to_string_tag(name),
        Member::attribute("userAgent", get_user_agent),
        Member::attribute("language", get_language),
        Member::attribute("languages", get_languages),
        Member::attribute("hardwareConcurrency", get_hardware_concurrency),
    ]
}

impl Class for NavigatorInterface {
    const NAME: &'static str = "Navigator";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(class, &navigator_rows("Navigator"))
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

impl Class for WorkerNavigatorInterface {
    const NAME: &'static str = "WorkerNavigator";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        webidl::define(class, &navigator_rows("WorkerNavigator"))
    }

    fn data_constructor(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<Self> {
        Err(webidl::illegal_constructor())
    }
}

/// Install `Navigator` (or `WorkerNavigator` when `info.worker`) and the global `navigator`
/// (a read-only accessor) on the current realm with the values of `info`. Calling it again
/// replaces the `navigator` object.
pub fn install_navigator(ctx: &mut Context, info: NavigatorInfo) -> JsResult<()> {
    let proto = if info.worker {
        webidl::register_interface::<WorkerNavigatorInterface>(ctx)?;
        ctx.get_global_class::<WorkerNavigatorInterface>()
            .map(|c| c.prototype())
    } else {
        webidl::register_interface::<NavigatorInterface>(ctx)?;
        ctx.get_global_class::<NavigatorInterface>()
            .map(|c| c.prototype())
    }
    .ok_or_else(|| type_error("Navigator is not registered"))?;
    let languages: Vec<JsValue> = if info.languages.is_empty() {
        vec![JsString::from("en-US").into()]
    } else {
        info.languages
            .iter()
            .map(|l| JsString::from(l.as_str()).into())
            .collect()
    };
    let languages = JsArray::from_iter(languages, ctx);
    // FrozenArray<DOMString>.
    JsObject::from(languages.clone())
        .set_integrity_level(boa_engine::object::IntegrityLevel::Frozen, ctx)?;
    let navigator = JsObject::from_proto_and_data(
        Some(proto),
        NavigatorData {
            info,
            languages: languages.into(),
        },
    );
    // [SameObject] readonly attribute Navigator navigator; (WorkerNavigator in a worker)
    let getter = webidl::function(
        ctx,
        "get navigator",
        0,
        NativeFunction::from_copy_closure_with_captures(
            |_, _, navigator: &JsObject, _| Ok(navigator.clone().into()),
            navigator,
        ),
    );
    ctx.global_object().define_property_or_throw(
        js_key!("navigator"),
        PropertyDescriptor::builder()
            .get(getter)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
