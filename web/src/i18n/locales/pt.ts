import type { Catalogue } from './en';

/** Portuguese, as written in Brazil: 'você', the polite form of its interfaces; never 'tu'. */
const pt: Catalogue = {
  // The page and its frame
  'app.title': 'Readiness — Avaliação',
  'app.heading': 'Avaliação de Preparação para a Educação a Distância',
  'app.loading': 'Carregando a avaliação',
  'app.redirecting': 'Redirecionando',
  'app.tryAgain': 'Tentar novamente',
  'language.label': 'Idioma',
  percent: '{percentage, number}%',

  // Loading and starting
  'load.failed': 'Não foi possível carregar a avaliação',
  'load.invalidLink': 'Link de convite inválido ou expirado',
  'load.invalidLinkText':
    'Este link não abre nenhuma avaliação: pode estar digitado incorretamente, desatualizado ou ter sido retirado.',
  'load.invalidLinkAsk': 'Peça um novo link à instituição ou ao administrador que lhe enviou o convite.',
  'load.alreadyCompleted': 'Você já concluiu a avaliação!',
  'start.started': 'A avaliação começou. Boa sorte!',
  'start.failed': 'Não foi possível iniciar a avaliação',

  // The welcome page
  'welcome.previousAttempt': 'Tentativa anterior',
  'welcome.passed': 'Aprovado',
  'welcome.failed': 'Reprovado',
  'welcome.completedOn': 'Concluída em {date}',
  'welcome.retake': 'Você pode refazer esta avaliação para melhorar sua pontuação.',
  'welcome.timeLimit': 'Tempo limite',
  'welcome.minutes': '{minutes, plural, one {# minuto} other {# minutos}}',
  'welcome.minutesSeconds':
    '{minutes, plural, one {# minuto} other {# minutos}} e {seconds, plural, one {# segundo} other {# segundos}}',
  'welcome.timeWithExtra':
    '{time}<0> incluindo seu tempo adicional de {extra, number}% ({minutes, plural, one {# minuto} other {# minutos}} para todos)</0>',
  'welcome.questions': 'Perguntas',
  'welcome.questionsAcross':
    '{questions, plural, one {# pergunta} other {# perguntas}} em {sections, plural, one {# seção} other {# seções}}',
  'welcome.passingScore': 'Pontuação para aprovação',
  'welcome.sections': 'Seções',
  'welcome.sectionQuestions': '{count, plural, one {# pergunta} other {# perguntas}}',
  'welcome.start': 'Iniciar a avaliação',

  // The waiting room
  'waiting.title': 'Você está na fila para começar',
  'waiting.place': 'Você é o número {place, number} na fila',
  'waiting.estimateUnderMinute': 'Espera estimada: menos de um minuto',
  'waiting.estimateMinutes': 'Espera estimada: cerca de {minutes, plural, one {# minuto} other {# minutos}}',
  'waiting.estimateHours': 'Espera estimada: cerca de {hours, plural, one {# hora} other {# horas}}',
  'waiting.notStarted':
    'Seu tempo ainda não começou. Mantenha esta página aberta: sua avaliação começará sozinha quando chegar a sua vez.',
  'waiting.turnTitle': 'Chegou a sua vez',
  'waiting.turnText': 'Seu tempo começa quando você pressionar Iniciar a avaliação.',
  'waiting.documentTitle': 'Chegou a sua vez — Readiness',

  // The check before the clock starts
  'check.title': 'Antes de começar',
  'check.ok': 'OK',
  'check.warning': 'Atenção',
  'check.info': 'Informação',
  'check.connectionChecking': 'Conexão: verificando…',
  'check.connectionUnreachable':
    'Conexão: não foi possível acessar o servidor — verifique sua conexão antes de começar',
  'check.connectionSlow':
    'Conexão: lenta ({seconds} s) — suas respostas continuam sendo salvas, só pode demorar mais',
  'check.connectionGood': 'Conexão: boa ({ms} ms)',
  'check.connectionFair':
    'Conexão: razoável ({ms} ms) — suficiente para a avaliação; salvar pode levar um instante',
  'check.clockInStep': 'Relógio: sincronizado com o servidor',
  'check.clockAheadMinutes':
    'Relógio: este dispositivo está {minutes, plural, one {# minuto} other {# minutos}} adiantado — o cronômetro segue o relógio do servidor, por isso não é preciso fazer nada',
  'check.clockBehindMinutes':
    'Relógio: este dispositivo está {minutes, plural, one {# minuto} other {# minutos}} atrasado — o cronômetro segue o relógio do servidor, por isso não é preciso fazer nada',
  'check.clockAheadHours':
    'Relógio: este dispositivo está {hours, plural, one {# hora} other {# horas}} adiantado — o cronômetro segue o relógio do servidor, por isso não é preciso fazer nada',
  'check.clockBehindHours':
    'Relógio: este dispositivo está {hours, plural, one {# hora} other {# horas}} atrasado — o cronômetro segue o relógio do servidor, por isso não é preciso fazer nada',
  'check.offlineKept': 'Respostas offline: salvas neste dispositivo se a conexão cair',
  'check.offlineNotKept':
    'Respostas offline: este navegador não consegue guardar respostas sem conexão — mantenha a conexão ativa ou saia da navegação privada',
  'check.closedPage':
    'Se você fechar a página: o tempo continua correndo; suas respostas salvas são mantidas e você pode voltar pelo mesmo link.',
  'check.finished': 'Verificação concluída. {connection}. {clock}. {offline}.',

  // The practice question
  'practice.title': 'Experimente uma pergunta de treino',
  'practice.note': 'Sem limite de tempo e sem pontuação: apenas mostra como as perguntas funcionam.',
  'practice.check': 'Verificar resposta',
  'practice.right': 'Está certo.',
  'practice.wrong': 'Não exatamente. A resposta é: {answer}.',
  'choice.yes': 'Sim',
  'choice.no': 'Não',

  // The test screen
  'save.saved': 'Salvo',
  'save.saving': 'Salvando…',
  'save.offline': 'Offline — respostas salvas neste dispositivo',
  'timer.label': 'Tempo restante',
  'timer.remaining': '{minutes, plural, one {Falta # minuto} other {Faltam # minutos}}',
  'progress.label': 'Progresso',
  'progress.complete': '{percent, number}% concluído',
  'sections.nav': 'Seções',
  'sections.select': 'Seção',
  'section.label': 'Seção {id}: {title}',
  'question.label': 'Pergunta {number}: ',
  'question.required': 'Obrigatória',
  'question.points': '{points, plural, one {# ponto} other {# pontos}}',
  'question.download': 'Baixar {name}',
  'question.downloadFailed': 'Falha no download. Tente novamente.',
  'upload.choose': 'Escolha um arquivo<0> ou arraste-o e solte-o aqui</0>',
  'upload.replace': 'Substitua o arquivo<0> ou arraste e solte outro aqui</0>',
  'upload.hint': 'PDF, Word, texto ou imagem (jpg, png), um único arquivo',
  'upload.progress': 'Enviando, {percent, number}%',
  'upload.remove': 'Remover',
  'upload.removeFile': 'Remover {name}',
  'upload.fileType':
    'Só é possível enviar arquivos PDF, Word (doc, docx), de texto e de imagem (jpg, jpeg, png)',
  'upload.tooLarge': 'O arquivo é grande demais para ser enviado',
  'upload.failed': 'Falha no envio do arquivo',
  'footer.previous': 'Seção anterior',
  'footer.position': 'Seção {current} de {total}',
  'footer.next': 'Próxima seção',
  'footer.submit': 'Enviar a avaliação',
  'gate.hint': 'Responda a todas as perguntas obrigatórias desta seção para continuar.',
  'gate.missing':
    '{count, plural, one {A pergunta {numbers} ainda precisa de resposta.} other {As perguntas {numbers} ainda precisam de resposta.}}',
  'gate.goTo': 'Ir para a pergunta {number}',
  'summary.title': 'Enviar sua avaliação?',
  'summary.answered': '{answered} de {total} respondidas.',
  'summary.answeredSkipped':
    '{answered} de {total} respondidas; {skipped, plural, one {# pergunta opcional ignorada} other {# perguntas opcionais ignoradas}}.',
  'summary.skippedList': 'Sem resposta — escolha uma para ir até ela:',
  'summary.skippedQuestion': 'Seção {section}, pergunta {number}',
  'summary.note':
    'As perguntas opcionais ignoradas não contam contra sua pontuação. Depois de enviar, você não poderá alterar suas respostas.',
  'summary.confirm': 'Enviar agora',
  'summary.cancel': 'Continuar respondendo',
  'dialog.close': 'Fechar',
  'test.extended':
    '{minutes, plural, one {Você recebeu # minuto a mais.} other {Você recebeu # minutos a mais.}}',
  'test.ended': 'Sua tentativa foi encerrada. Ela está sendo corrigida com base nas respostas salvas.',
  'test.timeUp': 'O tempo acabou! Sua avaliação está sendo enviada automaticamente.',
  'test.submitted': 'Avaliação enviada com sucesso!',
  'test.submitFailed': 'Não foi possível enviar a avaliação',

  // The completion page
  'complete.calculating': 'Calculando seu resultado…',
  'complete.calculatingNote':
    'Suas respostas foram enviadas com segurança. Isso costuma levar alguns segundos; a página será atualizada automaticamente.',
  'complete.congratulations': 'Parabéns!',
  'complete.title': 'Avaliação concluída',
  'complete.passed': 'Você concluiu com êxito a Avaliação de Preparação para a Educação a Distância',
  'complete.passedNote': 'Você já pode começar conosco sua jornada na educação a distância.',
  'complete.failed': 'Desta vez você não atingiu a pontuação necessária para aprovação',
  'complete.failedNote':
    'Não se preocupe! Você pode refazer a avaliação agora mesmo para melhorar sua pontuação.',
  'complete.points': '{score, number} / {total, number} pontos',
  'complete.attempt': 'Tentativa',
  'complete.attemptNumber': 'Tentativa nº {number}',
  'complete.code': 'Código da avaliação',
  'complete.status': 'Situação',
  'complete.statusPassed': 'APROVADO',
  'complete.statusFailed': 'REPROVADO',
  'complete.required': 'Necessário: {percentage, number}% para aprovação',
  'complete.pointsToPass': 'Pontos necessários para aprovação: {needed, number} de {total, number}',
  'complete.retake': 'Refazer a avaliação',
  'complete.next': 'Próximos passos',
  'complete.nextPassedMail': 'Você receberá um e-mail de confirmação com seus resultados.',
  'complete.nextPassedContact':
    'Nossa equipe de admissões entrará em contato com você sobre os próximos passos.',
  'complete.nextPassedPrepare': 'Prepare-se para sua jornada na educação a distância.',
  'complete.nextFailedReview': 'Revise as áreas em que você teve pontuação mais baixa.',
  'complete.nextFailedPractise': 'Pratique suas habilidades de informática e seus conhecimentos técnicos.',
  'complete.nextFailedRetake': 'Refaça a avaliação quando quiser.',
  'certificate.preparing':
    'Seu certificado está sendo preparado. Em instantes, ele estará disponível para download aqui.',
  'certificate.stillPreparing':
    'Seu certificado ainda está sendo preparado; ele também será enviado a você por e-mail.',
  'certificate.download': 'Baixar o certificado',
  'certificate.failed': 'Não foi possível baixar o certificado',
  'certificate.openBadge': 'Baixar Open Badge',

  // Certificate verification
  'verify.enterCode': 'Digite o código de verificação impresso no certificado',
  'verify.codeLabel': 'Código de verificação',
  'verify.submit': 'Verificar',
  'verify.formTitle': 'Verificar um certificado',
  'verify.anotherTitle': 'Verificar outro código',
  'verify.formText':
    'Digite o código de verificação impresso no certificado para confirmar que ele foi emitido.',
  'verify.unknownTitle': 'Nenhum certificado tem este código',
  'verify.malformedText': 'Verifique o código impresso no certificado e digite-o abaixo.',
  'verify.checking': 'Verificando o certificado {code}…',
  'verify.validTitle': 'Certificado válido',
  'verify.awarded': 'Este certificado foi emitido para <0>{name}</0> em <1>{date}</1>.',
  'verify.assessment': 'Avaliação',
  'verify.score': 'Pontuação',
  'verify.unknownText':
    'Nenhum certificado válido corresponde a <0>{code}</0>. Verifique o código impresso no certificado; um certificado revogado não pode mais ser verificado.',
  'verify.failedTitle': 'Não foi possível verificar o certificado',
  'verify.failedText': 'Ocorreu um problema do nosso lado. Tente novamente em instantes.',
  'verify.credentialTitle': 'Verificar uma credencial',
  'verify.credentialText':
    'Cole uma credencial Open Badges (o texto do arquivo .jwt) para verificar se ela é autêntica.',
  'verify.credentialLabel': 'Credencial',
  'verify.credentialEmpty': 'Cole uma credencial',
  'verify.credentialSubmit': 'Verificar credencial',
  'verify.credentialGenuine': 'Autêntica: emitida para <0>{name}</0> em <1>{date}</1> por {title}.',
  'verify.credentialRevoked': 'Revogada: esta credencial foi retirada e não é mais válida.',
  'verify.credentialAltered': 'Não autêntica: esta credencial foi alterada ou não foi emitida aqui.',

  // A student path that does not exist
  'notFound.title': 'Página não encontrada',
  'notFound.text': 'A página que procura não existe ou foi movida.',
  'notFound.home': 'Ir para o início',
  'notFound.back': 'Voltar',

  // The shared components' own words
  'ui.cancel': 'Cancelar',
  'ui.loading': 'A carregar',
};

export default pt;
