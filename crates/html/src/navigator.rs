//! HTML's [`navigator`](https://html.spec.whatwg.org/multipage/system-state.html#the-navigator-object)
//! (`Navigator`, or `WorkerNavigator` in a worker) with the members a server-side runtime
//! has (`userAgent`, `language`, `languages`, `hardwareConcurrency`), and
//! [`reportError(e)`](https://html.spec.whatwg.org/multipage/webappapis.html#dom-reporterror).
//!
//! [`register`](crate::register) installs `reportError`; the host installs `navigator` with
//! [`install_navigator`], supplying the values ([`NavigatorInfo`]).
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
use boa_webidl::{self as webidl, arg, js_key, type_error, INTERFACE_ATTRIBUTES};

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

/// The members both interfaces have: NavigatorID's `userAgent`, NavigatorLanguage's
/// `language` and `languages`, NavigatorConcurrentHardware's `hardwareConcurrency`.
fn init_members(class: &mut ClassBuilder<'_>, name: &str) {
    webidl::to_string_tag(class, name);
    webidl::attribute(
        class,
        "userAgent",
        NativeFunction::from_fn_ptr(|this, _, _| {
            let n = this_navigator(this)?;
            let ua = n.borrow().data().info.user_agent.clone();
            Ok(JsString::from(ua.as_str()).into())
        }),
        None,
    );
    webidl::attribute(
        class,
        "language",
        NativeFunction::from_fn_ptr(|this, _, _| {
            let n = this_navigator(this)?;
            let l = language(&n.borrow().data().info);
            Ok(JsString::from(l.as_str()).into())
        }),
        None,
    );
    webidl::attribute(
        class,
        "languages",
        NativeFunction::from_fn_ptr(|this, _, _| {
            let n = this_navigator(this)?;
            let languages = n.borrow().data().languages.clone();
            Ok(languages)
        }),
        None,
    );
    webidl::attribute(
        class,
        "hardwareConcurrency",
        NativeFunction::from_fn_ptr(|this, _, _| {
            let n = this_navigator(this)?;
            let c = n.borrow().data().info.hardware_concurrency;
            Ok(JsValue::from(c as f64))
        }),
        None,
    );
}

impl Class for NavigatorInterface {
    const NAME: &'static str = "Navigator";
    const LENGTH: usize = 0;
    const ATTRIBUTES: Attribute = INTERFACE_ATTRIBUTES;

    fn init(class: &mut ClassBuilder<'_>) -> JsResult<()> {
        init_members(class, "Navigator");
        Ok(())
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
        init_members(class, "WorkerNavigator");
        Ok(())
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

/// Install the global operation `reportError(e)`.
pub(crate) fn register_report_error(ctx: &mut Context) -> JsResult<()> {
    let f = webidl::function(
        ctx,
        "reportError",
        1,
        NativeFunction::from_fn_ptr(|_, args, ctx| {
            if args.is_empty() {
                return Err(type_error(
                    "Failed to execute 'reportError': 1 argument required, but only 0 present.",
                ));
            }
            // The reportError(e) method steps are to report an exception e for this.
            boa_dom::report_exception_value(arg(args, 0), ctx);
            Ok(JsValue::undefined())
        }),
    );
    ctx.global_object().define_property_or_throw(
        js_key!("reportError"),
        PropertyDescriptor::builder()
            .value(f)
            .writable(true)
            .enumerable(true)
            .configurable(true),
        ctx,
    )?;
    Ok(())
}
