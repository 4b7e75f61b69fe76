// The host's "report an exception" and rejection events: evaluated once by Host::new after
// boa_web registered Event, EventTarget and boa_html's ErrorEvent and PromiseRejectionEvent
// (the global is an EventTarget). The script's value is a pair of
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
  var addEventListener = g.EventTarget.prototype.addEventListener;
  var removeEventListener = g.EventTarget.prototype.removeEventListener;
  var preventDefault = g.Event.prototype.preventDefault;
  var eventType = Object.getOwnPropertyDescriptor(g.Event.prototype, "type").get;

  // ErrorEvent and PromiseRejectionEvent are boa_html's (installed by its register); an
  // ErrorEvent's fields are read through its getters, captured here.
  var ErrorEvent = g.ErrorEvent;
  var PromiseRejectionEvent = g.PromiseRejectionEvent;
  var errorGetter = function (name) {
    return Object.getOwnPropertyDescriptor(ErrorEvent.prototype, name).get;
  };
  var getMessage = errorGetter("message");
  var getFilename = errorGetter("filename");
  var getLineno = errorGetter("lineno");
  var getColno = errorGetter("colno");
  var getError = errorGetter("error");
  // Whether `event` is an ErrorEvent (its getters' brand check).
  var isErrorEvent = function (event) {
    try {
      apply(getMessage, event, []);
      return true;
    } catch (e) {
      return false;
    }
  };

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
      var special = isErrorEvent(event) && apply(eventType, event, []) === "error" && this === g;
      // 4. Invoke callback with this = event's currentTarget; a non-callable object returns
      //    undefined. An exception propagates to dispatch, which reports it.
      var result;
      if (typeof callback === "function") {
        result = special
          ? apply(callback, this, [
            apply(getMessage, event, []), apply(getFilename, event, []), apply(getLineno, event, []),
            apply(getColno, event, []), apply(getError, event, []),
          ])
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
