export function FullScreenLoading() {
  return (
    <div className="fullscreen-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}
