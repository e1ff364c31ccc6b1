/* When a captain's save is sent again: only when another try may get
   another answer. status 0 = network error (no answer, or an unreadable one); 429 = too
   many tries, wait; 5xx = the server failed. Every other answer (200, 400 bad numbers,
   403 expired session, 404 unknown link, 409 another phone's sheet, 410 gone) will not
   change by sending the same request again: the phone stops and shows it. */
(function (root) {
  "use strict";
  function retryable(status) {
    return status === 0 || status === 429 || (status >= 500 && status <= 599);
  }
  root.arbitroRetryable = retryable;
  if (typeof module !== "undefined" && module.exports) module.exports = { retryable: retryable };
})(typeof window !== "undefined" ? window : this);
