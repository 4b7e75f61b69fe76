//! The own-key order of every interface object and interface prototype object, checked against
//! the order WebIDL's algorithms define (written out below from each IDL block).
//!
//! [create an interface prototype object](https://webidl.spec.whatwg.org/#create-an-interface-prototype-object):
//! "Define the regular attributes", "Define the regular operations", "Define the iteration
//! methods", "Define the asynchronous iteration methods", "Define the constants", then "Perform
//! ! DefinePropertyOrThrow(interfaceProtoObj, "constructor", desc)". Members in IDL order; an
//! interface's own members before those of the mixins it includes (in `includes` order).
//! `Symbol.toStringTag` exists "at the time it is created" (class string), so it precedes the
//! `Symbol.asyncIterator` that [define the asynchronous iteration
//! methods](https://webidl.spec.whatwg.org/#define-the-asynchronous-iteration-methods) adds
//! after `values` ("Perform ! CreateDataPropertyOrThrow(target, "values", F)", then "perform !
//! DefineMethodProperty(target, %Symbol.asyncIterator%, F, false)").
//!
//! [create an interface object](https://webidl.spec.whatwg.org/#create-an-interface-object):
//! `length`, `name` (CreateBuiltinFunction), "prototype", then "Define the constants", "Define
//! the static attributes", "Define the static operations".
//!
//! The difftest reference (webidl2js) defines `constructor` first (class syntax), so these
//! orders are checked here and not against it (wpt/difftest/README.md, "Shape").

use crate::test_support::{context, string};

/// `(interface, prototype own keys, interface object own keys)`.
const EXPECTED: &[(&str, &str, &str)] = &[
    (
        "ReadableStream",
        "locked,cancel,getReader,pipeThrough,pipeTo,tee,values,constructor,\
         Symbol(Symbol.toStringTag),Symbol(Symbol.asyncIterator)",
        "length,name,prototype,from",
    ),
    (
        "ReadableStreamDefaultReader",
        "closed,read,releaseLock,cancel,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ReadableStreamBYOBReader",
        "closed,read,releaseLock,cancel,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ReadableStreamDefaultController",
        "desiredSize,close,enqueue,error,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ReadableByteStreamController",
        "byobRequest,desiredSize,close,enqueue,error,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ReadableStreamBYOBRequest",
        "view,respond,respondWithNewView,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "WritableStream",
        "locked,abort,close,getWriter,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "WritableStreamDefaultWriter",
        "closed,desiredSize,ready,abort,close,releaseLock,write,constructor,\
         Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "WritableStreamDefaultController",
        "signal,error,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "TransformStream",
        "readable,writable,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "TransformStreamDefaultController",
        "desiredSize,enqueue,error,terminate,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ByteLengthQueuingStrategy",
        "highWaterMark,size,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "CountQueuingStrategy",
        "highWaterMark,size,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    // includes TextEncoderCommon
    (
        "TextEncoder",
        "encoding,encode,encodeInto,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    // includes TextDecoderCommon
    (
        "TextDecoder",
        "encoding,fatal,ignoreBOM,decode,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    // includes TextEncoderCommon, GenericTransformStream
    (
        "TextEncoderStream",
        "encoding,readable,writable,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    // includes TextDecoderCommon, GenericTransformStream
    (
        "TextDecoderStream",
        "encoding,fatal,ignoreBOM,readable,writable,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "CompressionStream",
        "readable,writable,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "DecompressionStream",
        "readable,writable,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "QuotaExceededError",
        "quota,requested,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "DOMException",
        "name,message,code,INDEX_SIZE_ERR,DOMSTRING_SIZE_ERR,HIERARCHY_REQUEST_ERR,\
         WRONG_DOCUMENT_ERR,INVALID_CHARACTER_ERR,NO_DATA_ALLOWED_ERR,\
         NO_MODIFICATION_ALLOWED_ERR,NOT_FOUND_ERR,NOT_SUPPORTED_ERR,INUSE_ATTRIBUTE_ERR,\
         INVALID_STATE_ERR,SYNTAX_ERR,INVALID_MODIFICATION_ERR,NAMESPACE_ERR,\
         INVALID_ACCESS_ERR,VALIDATION_ERR,TYPE_MISMATCH_ERR,SECURITY_ERR,NETWORK_ERR,\
         ABORT_ERR,URL_MISMATCH_ERR,QUOTA_EXCEEDED_ERR,TIMEOUT_ERR,INVALID_NODE_TYPE_ERR,\
         DATA_CLONE_ERR,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,INDEX_SIZE_ERR,DOMSTRING_SIZE_ERR,HIERARCHY_REQUEST_ERR,\
         WRONG_DOCUMENT_ERR,INVALID_CHARACTER_ERR,NO_DATA_ALLOWED_ERR,\
         NO_MODIFICATION_ALLOWED_ERR,NOT_FOUND_ERR,NOT_SUPPORTED_ERR,INUSE_ATTRIBUTE_ERR,\
         INVALID_STATE_ERR,SYNTAX_ERR,INVALID_MODIFICATION_ERR,NAMESPACE_ERR,\
         INVALID_ACCESS_ERR,VALIDATION_ERR,TYPE_MISMATCH_ERR,SECURITY_ERR,NETWORK_ERR,\
         ABORT_ERR,URL_MISMATCH_ERR,QUOTA_EXCEEDED_ERR,TIMEOUT_ERR,INVALID_NODE_TYPE_ERR,\
         DATA_CLONE_ERR",
    ),
    // isTrusted is [LegacyUnforgeable]: an own property of each instance, not here.
    (
        "Event",
        "type,target,srcElement,currentTarget,eventPhase,cancelBubble,bubbles,cancelable,\
         returnValue,defaultPrevented,composed,timeStamp,composedPath,stopPropagation,\
         stopImmediatePropagation,preventDefault,initEvent,NONE,CAPTURING_PHASE,AT_TARGET,\
         BUBBLING_PHASE,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,NONE,CAPTURING_PHASE,AT_TARGET,BUBBLING_PHASE",
    ),
    (
        "MessagePort",
        // MessagePort's members, then those of the MessageEventTarget mixin: the attributes
        // (onclose, then onmessage, onmessageerror) before the operations.
        "onclose,onmessage,onmessageerror,postMessage,start,close,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "MessageChannel",
        "port1,port2,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "MessageEvent",
        // NOTE: the legacy `initMessageEvent` is not implemented.
        "data,origin,lastEventId,source,ports,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "ErrorEvent",
        // `constructor` first: the order these had as the host's script-defined classes.
        "constructor,message,filename,lineno,colno,error,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "PromiseRejectionEvent",
        "constructor,promise,reason,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "CustomEvent",
        "detail,initCustomEvent,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "EventTarget",
        "addEventListener,removeEventListener,dispatchEvent,constructor,\
         Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "AbortController",
        "signal,abort,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "AbortSignal",
        "aborted,reason,onabort,throwIfAborted,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,abort,timeout,any",
    ),
    (
        "Blob",
        "size,type,slice,stream,text,arrayBuffer,bytes,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "File",
        "name,lastModified,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "FileList",
        "length,item,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "FileReader",
        "readyState,result,error,onloadstart,onprogress,onload,onabort,onerror,onloadend,\
         readAsArrayBuffer,readAsBinaryString,readAsText,readAsDataURL,abort,EMPTY,LOADING,DONE,\
         constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,EMPTY,LOADING,DONE",
    ),
    (
        "Headers",
        "append,delete,get,getSetCookie,has,set,entries,keys,values,forEach,constructor,\
         Symbol(Symbol.toStringTag),Symbol(Symbol.iterator)",
        "length,name,prototype",
    ),
    (
        "FormData",
        "append,delete,get,getAll,has,set,entries,keys,values,forEach,constructor,\
         Symbol(Symbol.toStringTag),Symbol(Symbol.iterator)",
        "length,name,prototype",
    ),
    (
        "ProgressEvent",
        "lengthComputable,loaded,total,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "Crypto",
        "subtle,getRandomValues,randomUUID,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "SubtleCrypto",
        "encrypt,decrypt,sign,verify,digest,generateKey,deriveKey,deriveBits,importKey,\
         exportKey,wrapKey,unwrapKey,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "CryptoKey",
        "type,extractable,algorithm,usages,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "Performance",
        "timeOrigin,now,toJSON,getEntries,getEntriesByType,getEntriesByName,mark,clearMarks,\
         measure,clearMeasures,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "PerformanceEntry",
        "id,name,entryType,startTime,duration,navigationId,toJSON,constructor,\
         Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "PerformanceMark",
        "detail,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "PerformanceMeasure",
        "detail,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "PerformanceObserver",
        "observe,disconnect,takeRecords,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,supportedEntryTypes",
    ),
    (
        "PerformanceObserverEntryList",
        "getEntries,getEntriesByType,getEntriesByName,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
    (
        "URL",
        "href,origin,protocol,username,password,host,hostname,port,pathname,search,\
         searchParams,hash,toJSON,toString,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,parse,canParse,createObjectURL,revokeObjectURL",
    ),
    (
        "URLSearchParams",
        "size,append,delete,get,getAll,has,set,sort,toString,entries,keys,values,forEach,\
         constructor,Symbol(Symbol.toStringTag),Symbol(Symbol.iterator)",
        "length,name,prototype",
    ),
    (
        "Response",
        "type,url,redirected,status,ok,statusText,headers,body,bodyUsed,clone,arrayBuffer,blob,\
         bytes,formData,json,text,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype,error,redirect,json",
    ),
    (
        "Request",
        "method,url,headers,destination,referrer,referrerPolicy,mode,credentials,cache,redirect,\
         integrity,keepalive,isReloadNavigation,isHistoryNavigation,signal,duplex,body,bodyUsed,\
         clone,arrayBuffer,blob,bytes,formData,json,text,constructor,Symbol(Symbol.toStringTag)",
        "length,name,prototype",
    ),
];

fn keys(ctx: &mut boa_engine::Context, expr: &str) -> String {
    string(
        ctx,
        &format!("Reflect.ownKeys({expr}).map(String).join(',')"),
    )
}

#[test]
fn interface_prototype_and_object_own_key_order() {
    let mut ctx = context();
    for (name, proto, statics) in EXPECTED {
        let proto: String = proto.split_whitespace().collect();
        let statics: String = statics.split_whitespace().collect();
        assert_eq!(
            keys(&mut ctx, &format!("{name}.prototype")),
            proto,
            "{name}.prototype"
        );
        assert_eq!(keys(&mut ctx, name), statics, "{name}");
    }
}

#[test]
fn every_registered_interface_is_checked() {
    let mut ctx = context();
    let listed: Vec<&str> = EXPECTED.iter().map(|(n, _, _)| *n).collect();
    // Every global function with a prototype whose @@toStringTag names it is an interface
    // object this library registered (Boa's own builtins carry no such tag on a function
    // property of the global object besides these).
    let found = string(
        &mut ctx,
        "Object.getOwnPropertyNames(globalThis).filter(n => { const d = \
         Object.getOwnPropertyDescriptor(globalThis, n); return typeof d.value === 'function' \
         && !d.enumerable && d.value.prototype && Object.prototype.hasOwnProperty.call( \
         d.value.prototype, Symbol.toStringTag) && d.value.prototype[Symbol.toStringTag] === n \
         && !['Symbol','Promise','Map','Set','WeakMap','WeakSet','ArrayBuffer', \
         'SharedArrayBuffer','DataView','WeakRef','FinalizationRegistry','BigInt', \
         'Iterator','AsyncIterator','AsyncDisposableStack','DisposableStack'].includes(n) \
         && !/Array$/.test(n) }).join(',')",
    );
    let found: Vec<&str> = found.split(',').filter(|n| !n.is_empty()).collect();
    for name in &found {
        assert!(listed.contains(name), "{name} is not in EXPECTED");
    }
    for name in &listed {
        assert!(found.contains(name), "{name} is not a registered interface");
    }
}

#[test]
fn constants_keep_their_descriptor_after_the_move() {
    let mut ctx = context();
    // WebIDL "define the constants": {[[Writable]]: false, [[Enumerable]]: true,
    // [[Configurable]]: false}, on the interface object and the prototype.
    for target in [
        "DOMException",
        "DOMException.prototype",
        "Event",
        "Event.prototype",
    ] {
        let constant = if target.starts_with("Event") {
            "AT_TARGET"
        } else {
            "ABORT_ERR"
        };
        let d = string(
            &mut ctx,
            &format!(
                "(() => {{ const d = Object.getOwnPropertyDescriptor({target}, '{constant}'); \
                 return [d.value, d.writable, d.enumerable, d.configurable].join(); }})()"
            ),
        );
        let value = if constant == "AT_TARGET" { "2" } else { "20" };
        assert_eq!(
            d,
            format!("{value},false,true,false"),
            "{target}.{constant}"
        );
    }
    // Static operations stay writable, enumerable, configurable methods.
    let d = string(
        &mut ctx,
        "(() => { const d = Object.getOwnPropertyDescriptor(AbortSignal, 'any'); \
         return [typeof d.value, d.value.length, d.writable, d.enumerable, d.configurable] \
         .join(); })()",
    );
    assert_eq!(d, "function,1,true,true,true");
}

#[test]
fn async_iterator_prototype_own_keys() {
    let mut ctx = context();
    assert_eq!(
        keys(
            &mut ctx,
            "Object.getPrototypeOf(new ReadableStream().values())"
        ),
        "next,return,Symbol(Symbol.toStringTag)"
    );
}
