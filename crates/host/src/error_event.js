// HTML's ErrorEvent and PromiseRejectionEvent interfaces, and the host's "report an
// exception" and rejection events: evaluated once by Host::new after boa_streams registered
// Event and EventTarget (the global is an EventTarget). The script's value is a pair of
// dispatchers the host calls:
// - reportException(error, message, filename, lineno, colno) fires a cancelable ErrorEvent
//   named "error" at the global and returns whether no listener canceled it;
// - fireRejection(type, promise, reason) fires a PromiseRejectionEvent named type
//   ("unhandledrejection": cancelable; "rejectionhandled": not) at the global and returns
//   whether no listener canceled it.
// It also defines the global's event handler IDL attributes onerror, onunhandledrejection and
// onrejectionhandled (HTML's GlobalEventHandlers / WindowEventHandlers on a [Global] object:
// own accessors of the global).
// Everything it uses is captured here, so later changes to globals cannot reach it.
(function (g) {
  "use strict";
  var defineProperty = Object.defineProperty;
  var apply = Reflect.apply;
  var dispatchEvent = g.EventTarget.prototype.dispatchEvent;
  var slots = new WeakMap();
  var weakGet = WeakMap.prototype.get;
  var weakSet = WeakMap.prototype.set;
  var toNumber = Number;
  var toStr = String;
  var addEventListener = g.EventTarget.prototype.addEventListener;
  var removeEventListener = g.EventTarget.prototype.removeEventListener;
  var preventDefault = g.Event.prototype.preventDefault;
  var eventType = Object.getOwnPropertyDescriptor(g.Event.prototype, "type").get;

  // `unsigned long` (WebIDL ToUint32 after ToNumber).
  var toUnsignedLong = function (v) { return toNumber(v) >>> 0; };

  class ErrorEvent extends g.Event {
    constructor(type, eventInitDict) {
      if (arguments.length < 1) {
        throw new TypeError("ErrorEvent constructor: 1 argument required, but only 0 present");
      }
      super(type, eventInitDict);
      var init = eventInitDict === undefined || eventInitDict === null ? {} : eventInitDict;
      // ErrorEventInit members, after EventInit's, in lexicographic order.
      var colno = init.colno;
      var error = init.error;
      var filename = init.filename;
      var lineno = init.lineno;
      var message = init.message;
      apply(weakSet, slots, [this, {
        colno: colno === undefined ? 0 : toUnsignedLong(colno),
        error: error,
        filename: filename === undefined ? "" : toStr(filename),
        lineno: lineno === undefined ? 0 : toUnsignedLong(lineno),
        message: message === undefined ? "" : toStr(message),
      }]);
    }
  }
  var proto = ErrorEvent.prototype;
  ["message", "filename", "lineno", "colno", "error"].forEach(function (name) {
    var getter = {
      [name]() {
        var s = apply(weakGet, slots, [this]);
        if (s === undefined) throw new TypeError("'get " + name + "' called on an object that is not an ErrorEvent");
        return s[name];
      },
    }[name];
    defineProperty(getter, "name", { value: "get " + name });
    defineProperty(proto, name, { get: getter, enumerable: true, configurable: true });
  });
  defineProperty(proto, Symbol.toStringTag, { value: "ErrorEvent", configurable: true });
  defineProperty(g, "ErrorEvent", { value: ErrorEvent, writable: true, configurable: true, enumerable: false });

  // PromiseRejectionEvent (HTML): constructor(DOMString type, PromiseRejectionEventInit
  // eventInitDict) with the required member `object promise` and `any reason`.
  var rejectionSlots = new WeakMap();
  class PromiseRejectionEvent extends g.Event {
    constructor(type, eventInitDict) {
      if (arguments.length < 2) {
        throw new TypeError("PromiseRejectionEvent constructor: 2 arguments required, but only " + arguments.length + " present");
      }
      super(type, eventInitDict);
      var init = eventInitDict === undefined || eventInitDict === null ? {} : eventInitDict;
      // PromiseRejectionEventInit members, after EventInit's, in lexicographic order.
      var promise = init.promise;
      if (promise === undefined) {
        throw new TypeError("PromiseRejectionEvent constructor: the required member 'promise' is missing");
      }
      if ((typeof promise !== "object" || promise === null) && typeof promise !== "function") {
        throw new TypeError("PromiseRejectionEvent constructor: 'promise' is not an object");
      }
      var reason = init.reason;
      apply(weakSet, rejectionSlots, [this, { promise: promise, reason: reason }]);
    }
  }
  var rejectionProto = PromiseRejectionEvent.prototype;
  ["promise", "reason"].forEach(function (name) {
    var getter = {
      [name]() {
        var s = apply(weakGet, rejectionSlots, [this]);
        if (s === undefined) throw new TypeError("'get " + name + "' called on an object that is not a PromiseRejectionEvent");
        return s[name];
      },
    }[name];
    defineProperty(getter, "name", { value: "get " + name });
    defineProperty(rejectionProto, name, { get: getter, enumerable: true, configurable: true });
  });
  defineProperty(rejectionProto, Symbol.toStringTag, { value: "PromiseRejectionEvent", configurable: true });
  defineProperty(g, "PromiseRejectionEvent", { value: PromiseRejectionEvent, writable: true, configurable: true, enumerable: false });

  // Event handlers (HTML "event handler IDL attributes") on the global, for event `type`.
  // An event handler is { value, listener }: value null or an object ([LegacyTreatNonObjectAsNull]
  // EventHandler / OnErrorEventHandler: a non-object converts to null; a non-callable object is
  // kept and returns undefined when invoked); listener the one listener the handler added when
  // it was activated, removed when it is deactivated (set to null).
  function defineEventHandler(name, type) {
    var handler = { value: null, listener: null };
    // WebIDL attribute `this`: undefined/null is the global; anything else must be it.
    function checkThis(self) {
      if (self !== undefined && self !== null && self !== g) {
        throw new TypeError("'" + name + "' called on an object that is not the global object");
      }
    }
    // The event handler processing algorithm, with event's currentTarget (the global) as this.
    function processing(event) {
      // 1-2. Let callback be the event handler's current value; if null, return.
      var callback = handler.value;
      if (callback === null) return;
      // 3. Special error event handling: an ErrorEvent named "error" at a global.
      var errorSlots = apply(weakGet, slots, [event]);
      var special = errorSlots !== undefined && apply(eventType, event, []) === "error" && this === g;
      // 4. Invoke callback with this = event's currentTarget; a non-callable object returns
      //    undefined. An exception propagates to dispatch, which reports it.
      var result;
      if (typeof callback === "function") {
        result = special
          ? apply(callback, this, [errorSlots.message, errorSlots.filename, errorSlots.lineno, errorSlots.colno, errorSlots.error])
          : apply(callback, this, [event]);
      }
      // 5. Process return value: with special error handling, true cancels; else false does.
      if (special ? result === true : result === false) apply(preventDefault, event, []);
    }
    var getter = {
      ["get " + name]() {
        checkThis(this);
        return handler.value;
      },
    }["get " + name];
    var setter = {
      ["set " + name](value) {
        checkThis(this);
        if (arguments.length < 1) {
          throw new TypeError("'set " + name + "': 1 argument required, but only 0 present");
        }
        if ((typeof value === "object" && value !== null) || typeof value === "function") {
          // Set the value, then activate: the first activation adds the listener (later
          // values keep its position).
          handler.value = value;
          if (handler.listener === null) {
            var listener = function (event) { return apply(processing, this, [event]); };
            handler.listener = listener;
            apply(addEventListener, g, [type, listener]);
          }
        } else {
          // Deactivate: remove the listener (a later value is added at the end again).
          var old = handler.listener;
          handler.value = null;
          handler.listener = null;
          if (old !== null) apply(removeEventListener, g, [type, old]);
        }
      },
    }["set " + name];
    defineProperty(getter, "name", { value: "get " + name });
    defineProperty(setter, "name", { value: "set " + name });
    defineProperty(g, name, { get: getter, set: setter, enumerable: true, configurable: true });
  }
  defineEventHandler("onerror", "error");
  defineEventHandler("onunhandledrejection", "unhandledrejection");
  defineEventHandler("onrejectionhandled", "rejectionhandled");

  function reportException(error, message, filename, lineno, colno) {
    try {
      var event = new ErrorEvent("error", {
        cancelable: true, colno: colno, error: error, filename: filename, lineno: lineno, message: message,
      });
      return apply(dispatchEvent, g, [event]);
    } catch (e) {
      return true;
    }
  }

  function fireRejection(type, promise, reason) {
    try {
      var event = new PromiseRejectionEvent(type, {
        cancelable: type === "unhandledrejection", promise: promise, reason: reason,
      });
      return apply(dispatchEvent, g, [event]);
    } catch (e) {
      return true;
    }
  }

  return [reportException, fireRejection];
})(globalThis)
