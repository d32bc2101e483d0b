/*
 * What the student pages say, in English, by message id: the welcome, test and completion pages, the
 * certificate verification page, and the toasts and errors a student sees. The words are the SPEC's, exactly.
 *
 * English defines the ids; every other catalogue in this folder has the same ids (a missing or extra one does not
 * compile, and `catalogues.test.ts` also checks that each keeps English's placeholders and plurals). Messages are
 * ICU MessageFormat: `{name}` is a value, `{n, number}` a number formatted for the language, `{n, plural, one {…}
 * other {…}}` a plural in which `#` is the number, and `<0>…</0>` wraps words in an element the page gives.
 * The build compiles them (vite.config.mts, `compiledCatalogues`), so the pages ship no MessageFormat parser.
 */
const en = {
  // The page and its frame
  'app.title': 'Readiness — Assessment',
  'app.heading': 'Distance Education Readiness Assessment',
  'app.loading': 'Loading assessment',
  'app.redirecting': 'Redirecting',
  'app.tryAgain': 'Try again',
  'language.label': 'Language',
  percent: '{percentage, number}%',

  // Loading and starting (SPEC §4, §8)
  'load.failed': 'Failed to load assessment',
  'load.invalidLink': 'Invalid or expired invitation link',
  'load.invalidLinkText':
    'This link does not open an assessment: it may be mistyped, out of date or withdrawn.',
  'load.invalidLinkAsk': 'Ask the institution or administrator who sent you the invitation for a new link.',
  'load.alreadyCompleted': 'Assessment already completed!',
  'start.started': 'Assessment started. Good luck!',
  'start.failed': 'Failed to start assessment',

  // The welcome page (SPEC §2)
  'welcome.previousAttempt': 'Previous Attempt',
  'welcome.passed': 'Passed',
  'welcome.failed': 'Failed',
  'welcome.completedOn': 'Completed {date}',
  'welcome.retake': 'You can retake this assessment to improve your score.',
  'welcome.timeLimit': 'Time Limit',
  'welcome.minutes': '{minutes, plural, one {# minute} other {# minutes}}',
  'welcome.minutesSeconds':
    '{minutes, plural, one {# minute} other {# minutes}} {seconds, plural, one {# second} other {# seconds}}',
  'welcome.timeWithExtra':
    '{time}<0> including your {extra, number}% extra time ({minutes, plural, one {# minute} other {# minutes}} for everyone)</0>',
  'welcome.questions': 'Questions',
  'welcome.questionsAcross':
    '{questions, plural, one {# question} other {# questions}} across {sections, plural, one {# section} other {# sections}}',
  'welcome.passingScore': 'Passing Score',
  'welcome.sections': 'Sections',
  'welcome.sectionQuestions': '{count, plural, one {# question} other {# questions}}',
  'welcome.start': 'Start Assessment',

  // The waiting room: in line before the clock starts (docs/waiting-room.md)
  'waiting.title': 'You are in line to start',
  'waiting.place': 'You are number {place, number} in line',
  'waiting.estimateUnderMinute': 'Estimated wait: less than a minute',
  'waiting.estimateMinutes': 'Estimated wait: about {minutes, plural, one {# minute} other {# minutes}}',
  'waiting.estimateHours': 'Estimated wait: about {hours, plural, one {# hour} other {# hours}}',
  'waiting.notStarted':
    'Your time has not started. Keep this page open: your assessment will start by itself when it is your turn.',
  'waiting.turnTitle': 'It is your turn',
  'waiting.turnText': 'Your time starts when you press Start Assessment.',
  'waiting.documentTitle': 'It is your turn — Readiness',

  // The check before the clock starts
  'check.title': 'Before you start',
  'check.ok': 'OK',
  'check.warning': 'Warning',
  'check.info': 'Info',
  'check.connectionChecking': 'Connection: checking…',
  'check.connectionUnreachable':
    'Connection: could not reach the server — check your connection before you start',
  'check.connectionSlow':
    'Connection: slow ({seconds} s) — your answers are still saved, it may just take longer',
  'check.connectionGood': 'Connection: good ({ms} ms)',
  'check.connectionFair': 'Connection: fair ({ms} ms) — fine for the assessment; saving may take a moment',
  'check.clockInStep': 'Clock: in step with the server',
  'check.clockAheadMinutes':
    "Clock: this device is {minutes, plural, one {# minute} other {# minutes}} ahead — the timer follows the server's clock, so nothing to do",
  'check.clockBehindMinutes':
    "Clock: this device is {minutes, plural, one {# minute} other {# minutes}} behind — the timer follows the server's clock, so nothing to do",
  'check.clockAheadHours':
    "Clock: this device is {hours, plural, one {# hour} other {# hours}} ahead — the timer follows the server's clock, so nothing to do",
  'check.clockBehindHours':
    "Clock: this device is {hours, plural, one {# hour} other {# hours}} behind — the timer follows the server's clock, so nothing to do",
  'check.offlineKept': 'Offline answers: kept on this device if your connection drops',
  'check.offlineNotKept':
    'Offline answers: this browser cannot keep answers while offline — stay connected, or leave private browsing',
  'check.closedPage':
    'If you close the page: the time keeps running; your saved answers are kept and you can come back with the same link.',
  'check.finished': 'Check finished. {connection}. {clock}. {offline}.',

  // The practice question
  'practice.title': 'Try a practice question',
  'practice.note': 'Untimed and not scored: it only shows how questions work.',
  'practice.check': 'Check answer',
  'practice.right': "That's right.",
  'practice.wrong': 'Not quite. The answer is: {answer}.',
  'choice.yes': 'Yes',
  'choice.no': 'No',

  // The test screen (SPEC §2)
  'save.saved': 'Saved',
  'save.saving': 'Saving…',
  'save.offline': 'Offline — answers kept on this device',
  'timer.label': 'Time remaining',
  'timer.remaining': '{minutes, plural, one {# minute remaining} other {# minutes remaining}}',
  'progress.label': 'Progress',
  'progress.complete': '{percent, number}% complete',
  'sections.nav': 'Sections',
  'sections.select': 'Section',
  'section.label': 'Section {id}: {title}',
  'question.label': 'Question {number}: ',
  'question.required': 'Required',
  'question.points': '{points, plural, one {# point} other {# points}}',
  'question.download': 'Download {name}',
  'question.downloadFailed': 'Download failed. Please try again.',
  'upload.choose': 'Choose a file<0> or drag and drop it here</0>',
  'upload.replace': 'Replace the file<0> or drag and drop it here</0>',
  'upload.hint': 'PDF, Word, text or image (jpg, png), one file',
  'upload.progress': 'Uploading, {percent, number}%',
  'upload.remove': 'Remove',
  'upload.removeFile': 'Remove {name}',
  'upload.fileType': 'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded',
  'upload.tooLarge': 'The file is too large to upload',
  'upload.failed': 'File upload failed',
  'footer.previous': 'Previous Section',
  'footer.position': 'Section {current} of {total}',
  'footer.next': 'Next Section',
  'footer.submit': 'Submit Assessment',
  'gate.hint': 'Answer every required question in this section to continue.',
  'gate.missing':
    '{count, plural, one {Question {numbers} still needs an answer.} other {Questions {numbers} still need an answer.}}',
  'gate.goTo': 'Go to question {number}',
  'summary.title': 'Submit your assessment?',
  'summary.answered': '{answered} of {total} answered.',
  'summary.answeredSkipped':
    '{answered} of {total} answered; {skipped, plural, one {# optional question} other {# optional questions}} skipped.',
  'summary.skippedList': 'Not answered — choose one to go to it:',
  'summary.skippedQuestion': 'Section {section}, question {number}',
  'summary.note':
    'Skipped optional questions do not count against your score. You cannot change your answers after you submit.',
  'summary.confirm': 'Submit now',
  'summary.cancel': 'Keep working',
  'dialog.close': 'Close',
  'test.extended': 'You have been given {minutes, plural, one {# more minute} other {# more minutes}}.',
  'test.ended': 'Your attempt was ended. It is being scored from your saved answers.',
  'test.timeUp': 'Time is up! Submitting your assessment automatically.',
  'test.submitted': 'Assessment submitted successfully!',
  'test.submitFailed': 'Failed to submit assessment',

  // The completion page (SPEC §2)
  'complete.calculating': 'Calculating your result…',
  'complete.calculatingNote':
    'Your answers are safely submitted. This usually takes a few seconds; the page will update by itself.',
  'complete.congratulations': 'Congratulations!',
  'complete.title': 'Assessment Complete',
  'complete.passed': 'You have successfully passed the Distance Education Readiness Assessment',
  'complete.passedNote': 'You are ready to begin your distance education journey with us.',
  'complete.failed': 'You did not meet the passing requirements this time',
  'complete.failedNote': "Don't worry! You can retake the assessment immediately to improve your score.",
  'complete.points': '{score, number} / {total, number} points',
  'complete.attempt': 'Attempt',
  'complete.attemptNumber': 'Attempt #{number}',
  'complete.code': 'Assessment Code',
  'complete.status': 'Status',
  'complete.statusPassed': 'PASSED',
  'complete.statusFailed': 'FAILED',
  'complete.required': 'Required: {percentage, number}% to pass',
  'complete.pointsToPass': 'Points needed to pass: {needed, number} of {total, number}',
  'complete.retake': 'Retake Assessment',
  'complete.next': "What's Next?",
  'complete.nextPassedMail': 'You will receive a confirmation e-mail with your results.',
  'complete.nextPassedContact': 'Our admissions team will contact you about the next steps.',
  'complete.nextPassedPrepare': 'Prepare for your distance education journey.',
  'complete.nextFailedReview': 'Review the areas where you scored lower.',
  'complete.nextFailedPractise': 'Practise your computer skills and technical knowledge.',
  'complete.nextFailedRetake': 'Retake the assessment when you are ready.',
  'certificate.preparing':
    'Your certificate is being prepared. It will be ready to download here in a moment.',
  'certificate.stillPreparing':
    'Your certificate is still being prepared; it will also be sent to you by e-mail.',
  'certificate.download': 'Download Certificate',
  'certificate.failed': 'Failed to download certificate',
  'certificate.openBadge': 'Download Open Badge',

  // Certificate verification (public)
  'verify.enterCode': 'Enter the verification code printed on the certificate',
  'verify.codeLabel': 'Verification code',
  'verify.submit': 'Verify',
  'verify.formTitle': 'Verify a certificate',
  'verify.anotherTitle': 'Check another code',
  'verify.formText': 'Type the verification code printed on the certificate to check that it was awarded.',
  'verify.unknownTitle': 'No certificate has this code',
  'verify.malformedText': 'Check the code printed on the certificate and type it below.',
  'verify.checking': 'Checking certificate {code}…',
  'verify.validTitle': 'Valid certificate',
  'verify.awarded': 'This certificate was awarded to <0>{name}</0> on <1>{date}</1>.',
  'verify.assessment': 'Assessment',
  'verify.score': 'Score',
  'verify.unknownText':
    'No valid certificate matches <0>{code}</0>. Check the code printed on the certificate; a certificate that was withdrawn no longer verifies.',
  'verify.failedTitle': 'The certificate could not be checked',
  'verify.failedText': 'Something went wrong on our side. Please try again in a moment.',
  'verify.credentialTitle': 'Check a credential',
  'verify.credentialText':
    "Paste an Open Badges credential (the .jwt file's text) to check that it is genuine.",
  'verify.credentialLabel': 'Credential',
  'verify.credentialEmpty': 'Paste a credential',
  'verify.credentialSubmit': 'Check credential',
  'verify.credentialGenuine': 'Genuine: issued to <0>{name}</0> on <1>{date}</1> for {title}.',
  'verify.credentialRevoked': 'Revoked: this credential was withdrawn and is no longer valid.',
  'verify.credentialAltered': 'Not genuine: this credential was altered, or was not issued here.',

  // A student path that does not exist
  'notFound.title': 'Page Not Found',
  'notFound.text': 'The page you are looking for does not exist or has been moved.',
  'notFound.home': 'Go Home',
  'notFound.back': 'Go Back',

  // The shared components' own words
  'ui.cancel': 'Cancel',
  'ui.loading': 'Loading',
} as const;

export type MessageId = keyof typeof en;
/** A catalogue of another language: a message for every id English has, and no other. */
export type Catalogue = Record<MessageId, string>;

export default en satisfies Catalogue;
