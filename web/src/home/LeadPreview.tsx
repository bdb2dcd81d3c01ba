const SAMPLE_LEADS = [
  { company: 'Harborview Dental', email: 'fr•••@harborview.com', phone: '(512) 555-0142' },
  { company: 'Bright Smile Family', email: 'in•••@brightsmile.com', phone: '(512) 555-0187' },
  { company: 'Lakeline Orthodontics', email: 'ho•••@lakeline.com', phone: '(512) 555-0119' },
  { company: 'Cedar Park Dental', email: 'co•••@cedarpark.com', phone: '(512) 555-0163' },
];

/** Illustrative results card for the hero; the data is made up, and the card says so ("Example"). */
export function LeadPreview() {
  return (
    <figure className="lead-preview" aria-label="Example of generated leads">
      <div className="lead-preview-bar">
        <span>Dentists · Austin, TX</span>
        <span className="example-pill" data-testid="example-pill">Example</span>
      </div>
      <table>
        <thead>
          <tr>
            <th scope="col">Company</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
          </tr>
        </thead>
        <tbody>
          {SAMPLE_LEADS.map((lead) => (
            <tr key={lead.company}>
              <td>{lead.company}</td>
              <td>{lead.email}</td>
              <td>{lead.phone}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption className="lead-preview-footer">
        <span>
          Example: <strong>48</strong> leads
        </span>
        <span className="lead-preview-export">Export CSV</span>
      </figcaption>
    </figure>
  );
}
