/** The spec's busy state of a payment button: replaced by a disabled 'Processing...' button. */
export function ProcessingButton() {
  return (
    <button type="button" className="btn btn-secondary btn-block" disabled>
      <span className="spinner spinner-sm" aria-hidden="true" />
      Processing...
    </button>
  );
}
