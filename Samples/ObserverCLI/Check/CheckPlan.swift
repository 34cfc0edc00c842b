import BMLTKit
import Foundation

/// `check --plan`: what the check would send — each read check, and with a sandbox each write in order — printed, and
/// nothing sent (not even the validation).
enum CheckPlan {
    @MainActor
    static func show(_ settings: CheckSettings, context: CommandContext) {
        var steps: [(group: String, text: String)] = CheckCommand.readCheckNames.map { ("read", $0.1) }
        if let user = settings.user {
            steps.append(("write", "log in as \(user) (password from BMLT_PASSWORD or a prompt that does not echo), read its permissions"))
        }
        if let body = settings.serviceBodyID {
            steps.append(("write", "refuse service body #\(body) before anything is written unless this login may edit its meetings; "
                          + "read the meetings it holds"))
            let writes = [
                "create a test meeting, published, in #\(body) (named “bmlt-observer check XXXXXX published”)",
                "create a test meeting, unpublished, in #\(body)",
            ] + WriteEdits.edits.map { "save: \($0.title)" } + [
                "a second login (the same user) saves a change of the published meeting's comments; the first login's stale save must "
                    + "be refused (nothing sent)",
                "delete both test meetings",
                "restore the published one from its deletion, then delete it again",
                "clean-up: delete whatever the check made and still holds (also after a failure or Ctrl-C); compare #\(body)'s meetings "
                    + "with those before; log out",
            ]
            steps += writes.map { ("write", $0) }
            steps.append(("write", "at most \(CheckSettings.writeBudget) writes, \(ErrorWords.number(settings.spacing)) s apart; the server's change log keeps "
                          + "a record of each (no one can erase it)"))
        } else if settings.user != nil {
            steps.append(("write", "no write: writes need --service-body ID (a sandbox service body this login may edit)"))
        }
        if context.json {
            for (index, step) in steps.enumerated() {
                context.io.line(JSONRecords.line(["event": "plan", "step": index + 1, "group": step.group, "does": step.text]))
            }
            context.result(["plan": true, "count": steps.count, "sent": 0])
            return
        }
        context.output("Plan for \(context.connection.rootServerURL.absoluteString): nothing is sent.")
        context.output("The reads are anonymous: a few dozen requests, the whole region downloaded about three times.")
        context.output("")
        for (index, step) in steps.enumerated() { context.output(String(format: "%3d. ", index + 1) + "[\(step.group)] " + step.text) }
    }
}
