import { UserText } from "../components/format/UserText";

/** A campaign by its verified label, else its short id marked unverified (see campaignLabel.ts). */
export function CampaignName({ id, label }: { id: string; label?: string }) {
  if (label !== undefined) return <UserText text={label} />;
  return (
    <span title={id}>
      <code>{`${id.slice(0, 10)}…`}</code> <span className="badge">unverified</span>
    </span>
  );
}
