/** A confirmation shown above a form, the counterpart of FormAlert. */
export function FormNotice({ message }: { message: string }) {
  if (!message) return null;
  return (
    <div className="alert alert-success" role="status">
      {message}
    </div>
  );
}
