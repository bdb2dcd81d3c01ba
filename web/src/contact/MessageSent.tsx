import { Icon } from '../components/Icon';

export function MessageSent({ onSendAnother }: { onSendAnother(): void }) {
  return (
    <div className="message-sent" role="status">
      <span className="message-sent-icon">
        <Icon name="check" />
      </span>
      <h2>Message Sent!</h2>
      <p className="muted">Thank you for reaching out. We reply within 1 business day.</p>
      <button type="button" className="btn btn-secondary" onClick={onSendAnother}>
        Send Another Message
      </button>
    </div>
  );
}
