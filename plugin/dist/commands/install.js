module.exports = require('./_rest.js')["install"];
