import type { Catalogue } from './en';

/**
 * French: formal register (vous); typographic apostrophes (’), which MessageFormat leaves alone, and a
 * narrow no-break space before ; : ! ? and %.
 */
const fr: Catalogue = {
  // The page and its frame
  'app.title': 'Readiness — Évaluation',
  'app.heading': 'Évaluation de la préparation à la formation à distance',
  'app.loading': 'Chargement de l’évaluation',
  'app.redirecting': 'Redirection',
  'app.tryAgain': 'Réessayer',
  'language.label': 'Langue',
  percent: '{percentage, number} %',

  // Loading and starting
  'load.failed': 'Impossible de charger l’évaluation',
  'load.invalidLink': 'Lien d’invitation non valide ou expiré',
  'load.invalidLinkText': 'Ce lien n’ouvre aucune évaluation : il est peut-être mal saisi, périmé ou retiré.',
  'load.invalidLinkAsk':
    'Demandez un nouveau lien à l’établissement ou à l’administrateur qui vous a envoyé l’invitation.',
  'load.alreadyCompleted': 'Vous avez déjà terminé l’évaluation !',
  'start.started': 'L’évaluation a commencé. Bonne chance !',
  'start.failed': 'Impossible de commencer l’évaluation',

  // The welcome page
  'welcome.previousAttempt': 'Tentative précédente',
  'welcome.passed': 'Réussie',
  'welcome.failed': 'Non réussie',
  'welcome.completedOn': 'Terminée le {date}',
  'welcome.retake': 'Vous pouvez repasser cette évaluation pour améliorer votre score.',
  'welcome.timeLimit': 'Durée',
  'welcome.minutes': '{minutes, plural, one {# minute} other {# minutes}}',
  'welcome.minutesSeconds':
    '{minutes, plural, one {# minute} other {# minutes}} et {seconds, plural, one {# seconde} other {# secondes}}',
  'welcome.timeWithExtra':
    '{time}<0> y compris votre temps supplémentaire de {extra, number} % ({minutes, plural, one {# minute} other {# minutes}} pour tous)</0>',
  'welcome.questions': 'Questions',
  'welcome.questionsAcross':
    '{questions, plural, one {# question} other {# questions}} réparties en {sections, plural, one {# section} other {# sections}}',
  'welcome.passingScore': 'Score de réussite',
  'welcome.sections': 'Sections',
  'welcome.sectionQuestions': '{count, plural, one {# question} other {# questions}}',
  'welcome.start': 'Commencer l’évaluation',

  // The waiting room
  'waiting.title': 'Vous êtes dans la file d’attente',
  'waiting.place': 'Vous êtes le numéro {place, number} dans la file',
  'waiting.estimateUnderMinute': 'Attente estimée : moins d’une minute',
  'waiting.estimateMinutes': 'Attente estimée : environ {minutes, plural, one {# minute} other {# minutes}}',
  'waiting.estimateHours': 'Attente estimée : environ {hours, plural, one {# heure} other {# heures}}',
  'waiting.notStarted':
    'Votre temps n’a pas encore commencé. Gardez cette page ouverte : votre évaluation commencera d’elle-même quand ce sera votre tour.',
  'waiting.turnTitle': 'C’est votre tour',
  'waiting.turnText': 'Votre temps commence lorsque vous appuyez sur Commencer l’évaluation.',
  'waiting.documentTitle': 'C’est votre tour — Readiness',

  // The check before the clock starts
  'check.title': 'Avant de commencer',
  'check.ok': 'OK',
  'check.warning': 'Attention',
  'check.info': 'Info',
  'check.connectionChecking': 'Connexion : vérification…',
  'check.connectionUnreachable':
    'Connexion : impossible de joindre le serveur — vérifiez votre connexion avant de commencer',
  'check.connectionSlow':
    'Connexion : lente ({seconds} s) — vos réponses sont tout de même enregistrées, cela peut simplement prendre plus de temps',
  'check.connectionGood': 'Connexion : bonne ({ms} ms)',
  'check.connectionFair':
    'Connexion : correcte ({ms} ms) — suffisante pour l’évaluation ; l’enregistrement peut prendre un instant',
  'check.clockInStep': 'Horloge : synchronisée avec le serveur',
  'check.clockAheadMinutes':
    'Horloge : cet appareil avance de {minutes, plural, one {# minute} other {# minutes}} — le minuteur suit l’horloge du serveur, vous n’avez donc rien à faire',
  'check.clockBehindMinutes':
    'Horloge : cet appareil retarde de {minutes, plural, one {# minute} other {# minutes}} — le minuteur suit l’horloge du serveur, vous n’avez donc rien à faire',
  'check.clockAheadHours':
    'Horloge : cet appareil avance de {hours, plural, one {# heure} other {# heures}} — le minuteur suit l’horloge du serveur, vous n’avez donc rien à faire',
  'check.clockBehindHours':
    'Horloge : cet appareil retarde de {hours, plural, one {# heure} other {# heures}} — le minuteur suit l’horloge du serveur, vous n’avez donc rien à faire',
  'check.offlineKept': 'Réponses hors ligne : conservées sur cet appareil si votre connexion est coupée',
  'check.offlineNotKept':
    'Réponses hors ligne : ce navigateur ne peut pas conserver de réponses hors ligne — gardez la connexion active ou quittez la navigation privée',
  'check.closedPage':
    'Si vous fermez la page : le temps continue de s’écouler ; vos réponses enregistrées sont conservées et vous pouvez revenir avec le même lien.',
  'check.finished': 'Vérification terminée. {connection}. {clock}. {offline}.',

  // The practice question
  'practice.title': 'Essayez une question d’entraînement',
  'practice.note':
    'Sans limite de temps et non notée : elle montre seulement comment fonctionnent les questions.',
  'practice.check': 'Vérifier la réponse',
  'practice.right': 'C’est exact.',
  'practice.wrong': 'Pas tout à fait. La bonne réponse est : {answer}.',
  'choice.yes': 'Oui',
  'choice.no': 'Non',

  // The test screen
  'save.saved': 'Enregistré',
  'save.saving': 'Enregistrement…',
  'save.offline': 'Hors ligne — réponses conservées sur cet appareil',
  'timer.label': 'Temps restant',
  'timer.remaining': '{minutes, plural, one {# minute restante} other {# minutes restantes}}',
  'progress.label': 'Progression',
  'progress.complete': '{percent, number} % terminé',
  'sections.nav': 'Sections',
  'sections.select': 'Section',
  'section.label': 'Section {id} : {title}',
  'question.label': 'Question {number} : ',
  'question.required': 'Obligatoire',
  'question.points': '{points, plural, one {# point} other {# points}}',
  'question.download': 'Télécharger {name}',
  'question.downloadFailed': 'Le téléchargement a échoué. Veuillez réessayer.',
  'upload.choose': 'Choisissez un fichier<0> ou glissez-déposez-le ici</0>',
  'upload.replace': 'Remplacez le fichier<0> ou glissez-en un autre ici</0>',
  'upload.hint': 'PDF, Word, texte ou image (jpg, png), un seul fichier',
  'upload.progress': 'Envoi en cours, {percent, number} %',
  'upload.remove': 'Supprimer',
  'upload.removeFile': 'Supprimer {name}',
  'upload.fileType':
    'Seuls les fichiers PDF, Word (doc, docx), texte et image (jpg, jpeg, png) peuvent être envoyés',
  'upload.tooLarge': 'Le fichier est trop volumineux pour être envoyé',
  'upload.failed': 'L’envoi du fichier a échoué',
  'footer.previous': 'Section précédente',
  'footer.position': 'Section {current} sur {total}',
  'footer.next': 'Section suivante',
  'footer.submit': 'Soumettre l’évaluation',
  'gate.hint': 'Répondez à toutes les questions obligatoires de cette section pour continuer.',
  'gate.missing':
    '{count, plural, one {La question {numbers} attend encore une réponse.} other {Les questions {numbers} attendent encore une réponse.}}',
  'gate.goTo': 'Aller à la question {number}',
  'summary.title': 'Soumettre votre évaluation ?',
  'summary.answered': '{answered} sur {total} répondues.',
  'summary.answeredSkipped':
    '{answered} sur {total} répondues ; {skipped, plural, one {# question facultative ignorée} other {# questions facultatives ignorées}}.',
  'summary.skippedList': 'Sans réponse — choisissez-en une pour y aller :',
  'summary.skippedQuestion': 'Section {section}, question {number}',
  'summary.note':
    'Les questions facultatives ignorées ne comptent pas contre votre score. Vous ne pourrez plus modifier vos réponses après la soumission.',
  'summary.confirm': 'Soumettre maintenant',
  'summary.cancel': 'Continuer',
  'dialog.close': 'Fermer',
  'test.extended':
    '{minutes, plural, one {Vous disposez de # minute supplémentaire.} other {Vous disposez de # minutes supplémentaires.}}',
  'test.ended': 'Votre tentative a été arrêtée. Elle est notée à partir de vos réponses enregistrées.',
  'test.timeUp': 'Le temps est écoulé ! Votre évaluation est soumise automatiquement.',
  'test.submitted': 'Évaluation soumise avec succès !',
  'test.submitFailed': 'Impossible de soumettre l’évaluation',

  // The completion page
  'complete.calculating': 'Calcul de votre résultat…',
  'complete.calculatingNote':
    'Vos réponses ont bien été soumises. Cela prend généralement quelques secondes ; la page se mettra à jour d’elle-même.',
  'complete.congratulations': 'Félicitations !',
  'complete.title': 'Évaluation terminée',
  'complete.passed': 'Vous avez réussi l’Évaluation de la préparation à la formation à distance',
  'complete.passedNote': 'Vous pouvez commencer votre parcours de formation à distance avec nous.',
  'complete.failed': 'Vous n’avez pas atteint le score requis cette fois-ci',
  'complete.failedNote':
    'Ne vous inquiétez pas ! Vous pouvez repasser l’évaluation dès maintenant pour améliorer votre score.',
  'complete.points': '{score, number} / {total, number} points',
  'complete.attempt': 'Tentative',
  'complete.attemptNumber': 'Tentative n° {number}',
  'complete.code': 'Code d’évaluation',
  'complete.status': 'Statut',
  'complete.statusPassed': 'RÉUSSIE',
  'complete.statusFailed': 'NON RÉUSSIE',
  'complete.required': 'Score requis : {percentage, number} % pour réussir',
  'complete.pointsToPass': 'Points nécessaires pour réussir : {needed, number} sur {total, number}',
  'complete.retake': 'Repasser l’évaluation',
  'complete.next': 'Et maintenant ?',
  'complete.nextPassedMail': 'Vous recevrez un e-mail de confirmation avec vos résultats.',
  'complete.nextPassedContact': 'Notre service des admissions vous contactera pour les prochaines étapes.',
  'complete.nextPassedPrepare': 'Préparez-vous à votre parcours de formation à distance.',
  'complete.nextFailedReview': 'Revoyez les domaines où votre score a été le plus faible.',
  'complete.nextFailedPractise': 'Entraînez-vous en informatique et renforcez vos connaissances techniques.',
  'complete.nextFailedRetake': 'Repassez l’évaluation quand vous le souhaitez.',
  'certificate.preparing':
    'Votre certificat est en cours de préparation. Vous pourrez le télécharger ici dans un instant.',
  'certificate.stillPreparing':
    'Votre certificat est toujours en cours de préparation ; il vous sera également envoyé par e-mail.',
  'certificate.download': 'Télécharger le certificat',
  'certificate.failed': 'Impossible de télécharger le certificat',
  'certificate.openBadge': 'Télécharger l’Open Badge',

  // Certificate verification
  'verify.enterCode': 'Saisissez le code de vérification imprimé sur le certificat',
  'verify.codeLabel': 'Code de vérification',
  'verify.submit': 'Vérifier',
  'verify.formTitle': 'Vérifier un certificat',
  'verify.anotherTitle': 'Vérifier un autre code',
  'verify.formText':
    'Saisissez le code de vérification imprimé sur le certificat pour vérifier qu’il a bien été délivré.',
  'verify.unknownTitle': 'Aucun certificat ne porte ce code',
  'verify.malformedText': 'Vérifiez le code imprimé sur le certificat et saisissez-le ci-dessous.',
  'verify.checking': 'Vérification du certificat {code}…',
  'verify.validTitle': 'Certificat valide',
  'verify.awarded': 'Ce certificat a été délivré à <0>{name}</0> le <1>{date}</1>.',
  'verify.assessment': 'Évaluation',
  'verify.score': 'Score',
  'verify.unknownText':
    'Aucun certificat valide ne correspond à <0>{code}</0>. Vérifiez le code imprimé sur le certificat ; un certificat retiré ne peut plus être vérifié.',
  'verify.failedTitle': 'Le certificat n’a pas pu être vérifié',
  'verify.failedText': 'Un problème est survenu de notre côté. Veuillez réessayer dans un instant.',
  'verify.credentialTitle': 'Vérifier un justificatif',
  'verify.credentialText':
    'Collez un justificatif Open Badges (le texte du fichier .jwt) pour vérifier qu’il est authentique.',
  'verify.credentialLabel': 'Justificatif',
  'verify.credentialEmpty': 'Collez un justificatif',
  'verify.credentialSubmit': 'Vérifier le justificatif',
  'verify.credentialGenuine': 'Authentique : délivré à <0>{name}</0> le <1>{date}</1> pour {title}.',
  'verify.credentialRevoked': 'Révoqué : ce justificatif a été retiré et n’est plus valide.',
  'verify.credentialAltered': 'Non authentique : ce justificatif a été modifié, ou n’a pas été délivré ici.',

  // A student path that does not exist
  'notFound.title': 'Page introuvable',
  'notFound.text': 'La page que vous cherchez n’existe pas ou a été déplacée.',
  'notFound.home': 'Aller à l’accueil',
  'notFound.back': 'Retour',

  // The shared components' own words
  'ui.cancel': 'Annuler',
  'ui.loading': 'Chargement',
};

export default fr;
